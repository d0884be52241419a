import { expect } from 'chai';
import type { SAML } from '@node-saml/node-saml';
import { systemClock, type DomainEvent, type ModuleEvent, type RegisteredService } from '@tessera/core';
import { NAME_ID_FORMAT, RecordSamlRequestIdStore, RecordSamlSessionStore, samlId, STATUS, type SamlKeySet, type SamlServiceProvider } from '@tessera/core/modules/saml2';
import { MapRecordStores } from '@tessera/testkit';
import { logoutResponseXml, SamlBackChannelLogout, signEnveloped, type LogoutAnswer } from '@tessera/adapter-koa/modules/saml2';
import { credentials, IDP_BASE, IDP_ID, POST_SLO, REDIRECT_SLO, scriptedSp, serviceProvider, SETTINGS, SP_ID, SP_SLO, type Credentials } from './saml2-fixture.js';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const NAME_ID = 'AAdzZWNyZXQxNameIdOfCasuser';
const TGT = 'TGT-1-session';
const random = { bytes: (size: number) => crypto.getRandomValues(new Uint8Array(size)) };

/** What the SP answers the LogoutRequest it got (its XML, as node-saml read it), or how the request fails. */
type Answering = (request: { readonly id: string; readonly profile: Awaited<ReturnType<SAML['validatePostRequestAsync']>>['profile'] }) => Promise<LogoutAnswer>;

/** A page whose form posts `xml` to the IdP, as an SP answers over HTTP-POST; '=' written as an HTML entity, as some templates do. */
function postedPage(xml: string): LogoutAnswer {
  const encoded = Buffer.from(xml, 'utf8').toString('base64').replaceAll('=', '&#x3d;');
  return { status: 200, body: `<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="post" action="${POST_SLO}"><input type="hidden" name="SAMLResponse" value="${encoded}"/><input type="submit" value="Continue"/></form></body></html>` };
}

/** The SP's LogoutResponse over HTTP-POST, signed with `signer` (none: unsigned). */
function signedAnswer(keys: Credentials, inResponseTo: string, options: { readonly status?: string; readonly signer?: Credentials['sp'] | null } = {}): LogoutAnswer {
  const id = samlId(random);
  const xml = logoutResponseXml({ id, issueInstant: Date.now(), issuer: SP_ID, destination: POST_SLO, inResponseTo, status: options.status ?? STATUS.success });
  const signer = options.signer === undefined ? keys.sp : options.signer;
  return postedPage(signer === null ? xml : signEnveloped(xml, id, signer, RSA_SHA256));
}

async function logOut(answering: Answering) {
  const keys = await credentials();
  const saml = scriptedSp(keys, { logoutUrl: REDIRECT_SLO });
  const sp: SamlServiceProvider = serviceProvider(saml, keys);
  const records = new MapRecordStores(systemClock);
  const sessions = new RecordSamlSessionStore(records);
  await sessions.add(TGT, { spEntityId: SP_ID, nameId: NAME_ID, nameIdFormat: NAME_ID_FORMAT.persistent, sessionIndex: '_session-1', principal: 'casuser' }, Date.now() + 60_000);
  const events: (DomainEvent | ModuleEvent)[] = [];
  const sent: string[] = [];
  const keySet: SamlKeySet = { signing: [{ state: 'current', ...keys.idp }], encryption: [{ state: 'current', ...keys.idpEncryption }], persistentIdSalt: 'salt' };
  const logout = new SamlBackChannelLogout({
    entityId: IDP_ID,
    baseUrl: IDP_BASE,
    settings: SETTINGS,
    providers: { find: (entityId) => Promise.resolve(entityId === SP_ID ? { service: {} as RegisteredService, sp } : undefined) },
    sessions,
    requestIds: new RecordSamlRequestIdStore(records),
    keys: () => Promise.resolve(keySet),
    clock: systemClock,
    random,
    events: { emit: (event) => events.push(event) },
    send: async (url, init) => {
      sent.push(url);
      const encoded = new URLSearchParams(typeof init.body === 'string' ? init.body : '').get('SAMLRequest')!;
      // The SP reads the request as it would: node-saml checks the IdP's signature.
      const { profile } = await saml.validatePostRequestAsync({ SAMLRequest: encoded });
      const id = /ID="([^"]+)"/.exec(Buffer.from(encoded, 'base64').toString('utf8'))![1]!;
      return answering({ id, profile });
    },
  });
  await logout.ended(TGT);
  expect(sent).to.deep.equal([SP_SLO]);
  expect(JSON.stringify(events), 'never the NameID in full').to.not.contain(NAME_ID);
  return { events, saml, keys };
}

/** The one event of the logout, its type and reason. */
function outcomeOf(events: readonly (DomainEvent | ModuleEvent)[]) {
  expect(events).to.have.length(1);
  const event = events[0] as Record<string, unknown>;
  expect(event).to.deep.include({ serviceProvider: SP_ID, principal: 'casuser' });
  expect(event['nameId']).to.match(/^sha256:[0-9a-f]{12}$/);
  return event;
}

// docs/modules/saml2.md (Single logout): the SP's answer to a back-channel LogoutRequest is read and reported.
describe("saml2: the SP's answer to a back-channel LogoutRequest", () => {
  let saml: SAML;
  before(async () => {
    saml = scriptedSp(await credentials(), { logoutUrl: REDIRECT_SLO });
  });

  it('a signed LogoutResponse of Success over HTTP-Redirect (a redirect carrying it) is reported confirmed', async () => {
    const { events } = await logOut(async ({ profile }) => ({ status: 302, location: await saml.getLogoutResponseUrlAsync(profile, '', {}, true), body: '' }));
    expect(outcomeOf(events)).to.deep.include({ type: 'saml2.logout.confirmed' });
  });

  it('a signed LogoutResponse of Success over HTTP-POST (a page whose form posts it) is reported confirmed', async () => {
    const keys = await credentials();
    const { events } = await logOut(({ id }) => Promise.resolve(signedAnswer(keys, id)));
    expect(outcomeOf(events)).to.deep.include({ type: 'saml2.logout.confirmed' });
  });

  it('a status other than Success is a failure naming the status', async () => {
    const redirected = await logOut(async ({ profile }) => ({ status: 302, location: await saml.getLogoutResponseUrlAsync(profile, '', {}, false), body: '' }));
    expect(outcomeOf(redirected.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'status', detail: `The status is ${STATUS.requester} / ${STATUS.unknownPrincipal}` });
    const keys = await credentials();
    const posted = await logOut(({ id }) => Promise.resolve(signedAnswer(keys, id, { status: STATUS.responder })));
    expect(outcomeOf(posted.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'status' });
  });

  it("a signature by a key not in the SP's metadata, or none where its metadata has signing keys, is a failure", async () => {
    const keys = await credentials();
    const forged = await logOut(({ id }) => Promise.resolve(signedAnswer(keys, id, { signer: keys.stranger })));
    expect(outcomeOf(forged.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'signature' });
    const unsigned = await logOut(({ id }) => Promise.resolve(signedAnswer(keys, id, { signer: null })));
    expect(outcomeOf(unsigned.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'signature', detail: `The LogoutResponse of ${SP_ID} is not signed` });
  });

  it('a LogoutResponse answering another request is a failure', async () => {
    const keys = await credentials();
    const { events } = await logOut(() => Promise.resolve(signedAnswer(keys, '_another-request')));
    expect(outcomeOf(events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'in-response-to' });
  });

  it('no answer in time, no connection, an HTTP error or an answer without a LogoutResponse: each a failure saying which', async () => {
    const timedOut = await logOut(() => Promise.reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
    expect(outcomeOf(timedOut.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'timeout' });
    const refused = await logOut(() => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })));
    expect(outcomeOf(refused.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'unreachable', detail: 'ECONNREFUSED' });
    const broken = await logOut(() => Promise.resolve({ status: 500, body: 'oops' }));
    expect(outcomeOf(broken.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'http', detail: 'HTTP 500' });
    const silent = await logOut(() => Promise.resolve({ status: 200, body: '<html><body>Logged out</body></html>' }));
    expect(outcomeOf(silent.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'unanswered' });
    const elsewhere = await logOut(() => Promise.resolve({ status: 302, location: 'https://sp.example.org/bye', body: '' }));
    expect(outcomeOf(elsewhere.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'unanswered' });
    const garbage = await logOut(() => Promise.resolve(postedPage('<samlp:LogoutResponse')));
    expect(outcomeOf(garbage.events)).to.deep.include({ type: 'saml2.logout.failed', reason: 'invalid' });
  });
});
