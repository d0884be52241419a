import type { Clock, RandomSource } from '@tessera/core';
import { BINDING, currentKey, samlId, singleLogoutService, type SamlKeySet, type SamlSessionStore, type SamlSpSession } from '@tessera/core/modules/saml2';
import { logoutRequestXml } from './logout-messages.js';
import { redirectUrl } from './redirect-binding.js';
import type { SamlServiceProviders } from './service-providers.js';
import { signEnveloped } from './xml-signature.js';

export interface BackChannelLogoutDependencies {
  readonly entityId: string;
  readonly providers: SamlServiceProviders;
  readonly sessions: SamlSessionStore;
  readonly keys: () => Promise<SamlKeySet>;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** One request to an SP's SingleLogoutService; rejects when it is not answered in time. */
  readonly send: (url: string, init: RequestInit) => Promise<void>;
}

/** How long a LogoutRequest tessera sends may be presented (NotOnOrAfter). */
const LOGOUT_REQUEST_SECONDS = 60;

/**
 * When a login session ends (core's SessionListener), every SP that got an assertion within it is sent
 * a signed LogoutRequest naming the user as it knows them (the assertion's NameID and SessionIndex), over
 * the back channel, to the SingleLogoutService of its metadata (HTTP-POST preferred, else HTTP-Redirect),
 * as Apereo CAS sends them. The sessions are taken once, so each SP is told once, whichever node ends
 * the session; an SP that cannot be reached does not hold up the logout, nor the other SPs.
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
    const { policy } = found.sp;
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
    if (endpoint.binding === BINDING.post) {
      const signed = signEnveloped(xml, id, credential, algorithm);
      const body = new URLSearchParams({ SAMLRequest: Buffer.from(signed, 'utf8').toString('base64') }).toString();
      await this.deps.send(endpoint.location, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      return;
    }
    await this.deps.send(redirectUrl(endpoint.location, 'SAMLRequest', xml, undefined, { credential, algorithm }), { method: 'GET' });
  }
}
