import { type Clock, type RandomSource } from '@tessera/core';
import { BINDING, currentKey, samlId, singleLogoutService, STATUS, type SamlKeySet, type SamlRequestIdStore, type SamlServiceProvider, type SamlSessionStore, type SamlStatusCode, type SpEndpoint } from '@tessera/core/modules/saml2';
import type { Context } from 'koa';
import { z } from 'zod';
import { UNEXPECTED_ERROR_STATUS } from '../../errors/error-status.js';
import { reportServerError } from '../../errors/report.js';
import type { BrowserSessions, HttpContext } from '../../http-module.js';
import { sendPage } from '../../pages/send-page.js';
import { optionalText } from '../../request/parameter-schemas.js';
import { defineRoute, type FailureRendering, type Route, type Step } from '../../routes/route.js';
import { InboundRefusal, receiveLogoutRequest, receiveUnaskedLogoutResponse, type InboundMessage, type InboundSettings } from './inbound.js';
import { logoutResponseXml } from './logout-messages.js';
import { IDP_PATHS, MetadataError } from './metadata.js';
import { redirectUrl } from './redirect-binding.js';
import type { SamlPages } from './saml-pages.js';
import type { SamlServiceProviders } from './service-providers.js';
import { signEnveloped } from './xml-signature.js';

export interface SamlSloDependencies {
  readonly entityId: string;
  readonly baseUrl: string;
  readonly settings: InboundSettings;
  readonly providers: SamlServiceProviders;
  readonly requestIds: SamlRequestIdStore;
  readonly sessions: SamlSessionStore;
  /** The browser's login session (the login module's cookie). */
  readonly browserSessions: BrowserSessions;
  readonly keys: () => Promise<SamlKeySet>;
  readonly pages: SamlPages;
  readonly clock: Clock;
  readonly random: RandomSource;
}

const HTML = { 'text/html': z.string().meta({ description: 'The form posting the LogoutResponse to the SP, or a page.' }) };
const LOCATION = z.object({ Location: z.string().meta({ description: "The SP's SingleLogoutService with the LogoutResponse (HTTP-Redirect)." }) });
const PARAMETERS = {
  SAMLRequest: optionalText("The SP's LogoutRequest: base64 of its XML (HTTP-POST), or of its DEFLATE (HTTP-Redirect)."),
  SAMLResponse: optionalText("Instead of a LogoutRequest, an SP's LogoutResponse a browser brings (one tessera did not ask in this browser): read, shown, nothing changed."),
  RelayState: optionalText('Handed back to the SP with the LogoutResponse, as it came.'),
};

/**
 * Single logout the SP starts (SAML Profiles §4.4): its signed LogoutRequest, naming the user as this
 * browser's session told it (the NameID of the assertion it got), ends the login session as /logout
 * does: the TGT is destroyed (CAS single logout, OpenID Connect logout, the other SPs told), the
 * session cookie cleared. The SP gets a signed LogoutResponse at its metadata's SingleLogoutService.
 */
export function sloRoutes(http: HttpContext, deps: SamlSloDependencies): Route[] {
  const { pages, clock, random } = deps;
  const failures: FailureRendering = { statusOf: () => 400, response: () => ({ content: HTML }) };
  const renderFailures: Step = async function renderSamlLogoutFailures(ctx, next) {
    try {
      await next();
    } catch (thrown) {
      if (thrown instanceof InboundRefusal && thrown.answer !== undefined) {
        const { sp, endpoint, requestId, relayState } = thrown.answer;
        return answerSp(ctx, sp, endpoint, { inResponseTo: requestId, status: thrown.status, ...(thrown.subStatus !== undefined && { subStatus: thrown.subStatus }), statusMessage: thrown.reason }, relayState);
      }
      if (thrown instanceof InboundRefusal || thrown instanceof MetadataError) return sendPage(ctx, 400, pages.error(thrown.reason));
      reportServerError(http.events, thrown, ctx);
      return sendPage(ctx, UNEXPECTED_ERROR_STATUS, pages.error('Something went wrong; please try again later.'));
    }
  };

  /** The SP's LogoutResponse, signed, at the SingleLogoutService of its metadata. */
  const answerSp = async (ctx: Context, sp: SamlServiceProvider, endpointOfSp: SpEndpoint, outcome: { readonly inResponseTo: string; readonly status: SamlStatusCode; readonly subStatus?: SamlStatusCode; readonly statusMessage?: string }, relayState: string | undefined) => {
    const destination = endpointOfSp.responseLocation ?? endpointOfSp.location;
    const id = samlId(random);
    const xml = logoutResponseXml({ id, issueInstant: clock.now(), issuer: sp.policy.issuerEntityId ?? deps.entityId, destination, ...outcome });
    const credential = currentKey((await deps.keys()).signing);
    const algorithm = sp.policy.signingSignatureAlgorithms[0] ?? 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
    if (endpointOfSp.binding === BINDING.redirect) {
      ctx.status = 303;
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(redirectUrl(destination, 'SAMLResponse', xml, relayState, { credential, algorithm }));
      return;
    }
    const signed = signEnveloped(xml, id, credential, algorithm);
    sendPage(ctx, 200, pages.post(destination, { SAMLResponse: Buffer.from(signed, 'utf8').toString('base64'), RelayState: relayState }));
  };

  /**
   * A LogoutResponse a browser brings, though tessera sends its LogoutRequests over the back channel
   * (an SP may answer one so): checked as any message of the SP, then a page saying whether the SP
   * ended its session. It answers nothing tessera waits for: nothing is stored, no session changes.
   */
  const logoutAnswered = async (ctx: Context, inbound: InboundMessage, endpoint: string) => {
    const { sp, message } = await receiveUnaskedLogoutResponse(inbound, `${deps.baseUrl}${endpoint}`, deps.settings, { serviceProvider: deps.providers.serviceProvider, now: () => clock.now() });
    const entityId = sp.metadata.entityId;
    if (message.status !== STATUS.success) {
      const status = [message.status, message.subStatus].filter((code) => code !== undefined).join(' / ');
      throw new InboundRefusal(`${entityId} answered the logout with the status ${status}: it may not have ended its session`);
    }
    sendPage(ctx, 200, pages.logoutConfirmed(entityId));
  };

  /** Which message a request carries: a LogoutRequest, an SP's LogoutResponse, or (neither, or both) a refusal. */
  const carried = (names: { has(name: string): boolean }): 'request' | 'response' => {
    const request = names.has('SAMLRequest');
    const response = names.has('SAMLResponse');
    if (request && response) throw new InboundRefusal('The message holds both a SAMLRequest and a SAMLResponse');
    if (!request && !response) throw new InboundRefusal('The message holds neither a SAMLRequest nor a SAMLResponse');
    return request ? 'request' : 'response';
  };

  const logOut = async (ctx: Context, inbound: InboundMessage, endpoint: string) => {
    const names = inbound.binding === BINDING.redirect ? new URLSearchParams(inbound.rawQuery) : new Set(Object.keys(inbound.form).filter((name) => inbound.form[name] !== undefined));
    if (carried(names) === 'response') return logoutAnswered(ctx, inbound, endpoint);
    const received = await receiveLogoutRequest(inbound, `${deps.baseUrl}${endpoint}`, deps.settings, {
      serviceProvider: deps.providers.serviceProvider,
      requestIds: deps.requestIds,
      now: () => clock.now(),
      encryptionKeys: async () => (await deps.keys()).encryption,
    });
    const { sp, message, relayState } = received;
    const tgtId = await deps.browserSessions.sessionOf(ctx);
    let status: SamlStatusCode = STATUS.success;
    let subStatus: SamlStatusCode | undefined;
    if (tgtId !== undefined) {
      const held = (await deps.sessions.sessionsOf(tgtId)).find((session) => session.spEntityId === sp.metadata.entityId);
      if (held !== undefined && held.nameId === message.nameId.value) {
        // The SP logged itself out: it is not told again when the session ends.
        await deps.sessions.remove(tgtId, sp.metadata.entityId);
        await http.core.destroyTicketGrantingTicket.execute(tgtId);
        await deps.browserSessions.forget(ctx, tgtId);
      } else {
        // This browser's session is not the one the SP names: it stays.
        status = STATUS.requester;
        subStatus = STATUS.unknownPrincipal;
      }
    }
    const endpointOfSp = singleLogoutService(sp.metadata, [BINDING.redirect, BINDING.post]);
    if (endpointOfSp === undefined) return sendPage(ctx, 200, pages.loggedOut());
    await answerSp(ctx, sp, endpointOfSp, { inResponseTo: message.id, status, ...(subStatus !== undefined && { subStatus }) }, relayState);
  };

  const described =
    "An SP's signed LogoutRequest naming the user of this browser's session ends that session as `/logout` does (CAS single logout, OpenID Connect logout, the other SPs told), and the SP gets a signed LogoutResponse at the SingleLogoutService of its metadata. The user may be named by an EncryptedID, decrypted with the IdP's encryption keys once the signature is verified. A request naming another user, or whose EncryptedID does not decrypt, leaves the session and answers `UnknownPrincipal`; one that fails another check gets an error page naming why. A browser bringing an SP's LogoutResponse instead (`SAMLResponse`) gets a page saying the SP ended its session when it is the SP's, signed, addressed here, in time and `Success`, else an error page naming why; nothing is stored and no session changes.";
  const redirectSlo = defineRoute({
    method: 'get',
    path: IDP_PATHS.redirectSlo,
    operationId: 'saml2RedirectSlo',
    summary: "SAML 2.0: single logout, an SP's LogoutRequest (or LogoutResponse) over HTTP-Redirect",
    description: described,
    request: { query: z.object({ ...PARAMETERS, SigAlg: optionalText('The algorithm of the signature over the query.'), Signature: optionalText('The signature over the query (base64).') }) },
    responses: { 200: { description: 'The LogoutResponse posted to the SP, or a page.', content: HTML }, 303: { description: 'Back to the SP with the LogoutResponse.', headers: LOCATION } },
    failures,
    steps: [renderFailures],
    async handle(ctx) {
      await logOut(ctx, { binding: BINDING.redirect, rawQuery: ctx.querystring }, IDP_PATHS.redirectSlo);
    },
  });
  const postSlo = defineRoute({
    method: 'post',
    path: IDP_PATHS.postSlo,
    operationId: 'saml2PostSlo',
    summary: "SAML 2.0: single logout, an SP's LogoutRequest (or LogoutResponse) over HTTP-POST",
    description: described,
    request: { parameters: z.object(PARAMETERS) },
    responses: { 200: { description: 'The LogoutResponse posted to the SP, or a page.', content: HTML }, 303: { description: 'Back to the SP with the LogoutResponse.', headers: LOCATION } },
    failures,
    steps: [renderFailures, http.readBody],
    async handle(ctx, { sentParameters }) {
      await logOut(ctx, { binding: BINDING.post, form: sentParameters }, IDP_PATHS.postSlo);
    },
  });
  return [redirectSlo, postSlo];
}
