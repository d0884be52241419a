import { createHash } from 'node:crypto';
import type { Clock, EventSink, RandomSource } from '@tessera/core';
import {
  BINDING,
  currentKey,
  samlId,
  singleLogoutService,
  type SamlKeySet,
  type SamlLogoutConfirmedEvent,
  type SamlLogoutFailedEvent,
  type SamlRequestIdStore,
  type SamlServiceProvider,
  type SamlSessionStore,
  type SamlSpSession,
} from '@tessera/core/modules/saml2';
import { parse } from 'parse5';
import { LogoutAnswerRefusal, receiveLogoutAnswer, type InboundMessage, type InboundSettings } from './inbound.js';
import { logoutRequestXml } from './logout-messages.js';
import { IDP_PATHS } from './metadata.js';
import { redirectUrl } from './redirect-binding.js';
import type { SamlServiceProviders } from './service-providers.js';
import { signEnveloped } from './xml-signature.js';

/** What an SP's SingleLogoutService answered: the HTTP status, a redirect's Location, the body (bounded by the sender). */
export interface LogoutAnswer {
  readonly status: number;
  readonly location?: string;
  readonly body: string;
}

export interface BackChannelLogoutDependencies {
  readonly entityId: string;
  /** The IdP's base URL (public URL and base path): its SingleLogoutServices, which an SP's LogoutResponse names. */
  readonly baseUrl: string;
  readonly settings: InboundSettings;
  readonly providers: Pick<SamlServiceProviders, 'find'>;
  readonly sessions: SamlSessionStore;
  /** The IDs of the LogoutResponses accepted, so none is taken twice. */
  readonly requestIds: SamlRequestIdStore;
  readonly keys: () => Promise<SamlKeySet>;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly events: EventSink;
  /**
   * One request to an SP's SingleLogoutService, redirects not followed; rejects when it is not answered
   * in time (an error named `TimeoutError` or `AbortError`) or cannot be made, or with a
   * LogoutAnswerRefusal when the answer is too large to read.
   */
  readonly send: (url: string, init: RequestInit) => Promise<LogoutAnswer>;
}

/** How long a LogoutRequest tessera sends may be presented (NotOnOrAfter). */
const LOGOUT_REQUEST_SECONDS = 60;

/**
 * When a login session ends (core's SessionListener), every SP that got an assertion within it is sent
 * a signed LogoutRequest naming the user as it knows them (the assertion's NameID and SessionIndex), over
 * the back channel, to the SingleLogoutService of its metadata (HTTP-POST preferred, else HTTP-Redirect),
 * as Apereo CAS sends them. The sessions are taken once, so each SP is told once, whichever node ends
 * the session; an SP that cannot be reached does not hold up the logout, nor the other SPs.
 *
 * The SP's answer is read: a LogoutResponse of Success (over HTTP-Redirect, a redirect carrying it;
 * over HTTP-POST, a page whose form posts it), verified as any message of the SP, is reported as
 * `saml2.logout.confirmed`; anything else as `saml2.logout.failed`, naming why.
 */
export class SamlBackChannelLogout {
  constructor(private readonly deps: BackChannelLogoutDependencies) {}

  async ended(tgtId: string): Promise<void> {
    const held = await this.deps.sessions.take(tgtId);
    await Promise.all(held.map((session) => this.tell(session).catch(() => undefined)));
  }

  private async tell(session: SamlSpSession): Promise<void> {
    const { providers, clock, random } = this.deps;
    const found = await providers.find(session.spEntityId);
    const endpoint = found === undefined ? undefined : singleLogoutService(found.sp.metadata, [BINDING.post, BINDING.redirect]);
    if (found === undefined || endpoint === undefined) return;
    const { sp } = found;
    const { policy } = sp;
    const id = samlId(random);
    const now = clock.now();
    const xml = logoutRequestXml({
      id,
      issueInstant: now,
      notOnOrAfter: now + LOGOUT_REQUEST_SECONDS * 1000,
      issuer: policy.issuerEntityId ?? this.deps.entityId,
      destination: endpoint.location,
      nameId: { value: session.nameId, format: session.nameIdFormat, ...(session.spNameQualifier !== undefined && { spNameQualifier: session.spNameQualifier }) },
      sessionIndexes: [session.sessionIndex],
    });
    const credential = currentKey((await this.deps.keys()).signing);
    const algorithm = policy.signingSignatureAlgorithms[0] ?? 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
    const about = { serviceProvider: sp.metadata.entityId, ...(session.principal !== undefined && { principal: session.principal }), nameId: nameIdFingerprint(session.nameId) };
    try {
      let answer: LogoutAnswer;
      try {
        if (endpoint.binding === BINDING.post) {
          const signed = signEnveloped(xml, id, credential, algorithm);
          const body = new URLSearchParams({ SAMLRequest: Buffer.from(signed, 'utf8').toString('base64') }).toString();
          answer = await this.deps.send(endpoint.location, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
        } else {
          answer = await this.deps.send(redirectUrl(endpoint.location, 'SAMLRequest', xml, undefined, { credential, algorithm }), { method: 'GET' });
        }
      } catch (error) {
        throw transportFailure(error);
      }
      await this.confirmed(answer, sp, id);
      this.deps.events.emit({ type: 'saml2.logout.confirmed', ...about } satisfies SamlLogoutConfirmedEvent);
    } catch (error) {
      if (!(error instanceof LogoutAnswerRefusal)) throw error;
      this.deps.events.emit({ type: 'saml2.logout.failed', ...about, reason: error.failure, detail: error.detail } satisfies SamlLogoutFailedEvent);
    }
  }

  /** The SP's answer, read as its LogoutResponse to request `requestId`: returns when it confirms the logout, else a LogoutAnswerRefusal. */
  private async confirmed(answer: LogoutAnswer, sp: SamlServiceProvider, requestId: string): Promise<void> {
    const { settings, requestIds, clock, baseUrl } = this.deps;
    const checks = { requestIds, now: () => clock.now() };
    if (answer.status >= 300 && answer.status < 400) {
      const rawQuery = answer.location === undefined ? '' : queryOf(answer.location);
      if (!new URLSearchParams(rawQuery).has('SAMLResponse')) throw new LogoutAnswerRefusal('unanswered', `HTTP ${answer.status}, a redirect without a SAMLResponse`);
      const inbound: InboundMessage = { binding: BINDING.redirect, rawQuery };
      await receiveLogoutAnswer(inbound, `${baseUrl}${IDP_PATHS.redirectSlo}`, { sp, requestId }, settings, checks);
      return;
    }
    if (answer.status < 200 || answer.status >= 300) throw new LogoutAnswerRefusal('http', `HTTP ${answer.status}`);
    const form = formFields(answer.body);
    if (form['SAMLResponse'] === undefined) throw new LogoutAnswerRefusal('unanswered', `HTTP ${answer.status}, a page without a SAMLResponse`);
    await receiveLogoutAnswer({ binding: BINDING.post, form }, `${baseUrl}${IDP_PATHS.postSlo}`, { sp, requestId }, settings, checks);
  }
}

/** A request that got no answer: in time (`timeout`) or at all (`unreachable`, with the system's code when there is one). */
function transportFailure(error: unknown): LogoutAnswerRefusal {
  if (error instanceof LogoutAnswerRefusal) return error;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return new LogoutAnswerRefusal('timeout', 'No answer in time');
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return new LogoutAnswerRefusal('unreachable', code ?? 'The connection failed');
}

/** The query of a URL exactly as sent (its signature covers those bytes), without a fragment. */
function queryOf(location: string): string {
  const start = location.indexOf('?');
  if (start < 0) return '';
  const end = location.indexOf('#', start);
  return location.slice(start + 1, end < 0 ? undefined : end);
}

interface HtmlNode {
  readonly nodeName: string;
  readonly attrs?: readonly { readonly name: string; readonly value: string }[];
  readonly childNodes?: readonly HtmlNode[];
}

/** The named fields of a page's inputs (the first of each name), as a browser would post its form: an HTTP-POST binding's answer. */
function formFields(html: string): Record<string, string> {
  const fields = new Map<string, string>();
  const pending: HtmlNode[] = [parse(html)];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.nodeName === 'input') {
      const name = node.attrs?.find((attribute) => attribute.name === 'name')?.value;
      const value = node.attrs?.find((attribute) => attribute.name === 'value')?.value ?? '';
      if (name !== undefined && !fields.has(name)) fields.set(name, value);
    }
    pending.push(...[...(node.childNodes ?? [])].reverse());
  }
  return Object.fromEntries(fields);
}

/** The NameID as events name it: the first 12 hex digits of its SHA-256, never the value itself. */
function nameIdFingerprint(nameId: string): string {
  return `sha256:${createHash('sha256').update(nameId, 'utf8').digest('hex').slice(0, 12)}`;
}
