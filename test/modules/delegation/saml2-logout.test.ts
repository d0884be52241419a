import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { samlCredential, type SamlCredential } from '@tessera/testkit/modules/saml2';
import { Browser, formOf, headingOf } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { validate } from '../login/support.js';
import { freePort, startDelegation } from './support.js';
import { IDP_ENTITY_ID, IDP_SLO_URL, ScriptedIdp, sentLogoutRequest, sentRequest, type LogoutResponseOptions, type SentLogoutRequest } from './scripted-idp.js';

/** An answer the IdP (or an attacker) brings back for `request`, given another logout it may answer instead. */
type AnswerCase = [string, (request: SentLogoutRequest, other: SentLogoutRequest) => (browser: Browser) => Promise<{ status: number; body: string }>];

const PROVIDER = 'partner-saml';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const AUDIT = (lines: readonly string[], action: string) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record['action'] === action);

// docs/modules/delegation.md: a SAML 2 identity provider's single logout after tessera's (`logout: true`),
// here a scripted IdP (its LogoutResponses signed as a real IdP signs them, or made wrong on purpose);
// and an encrypted assertion decrypted with tessera's key.
describe('delegation: single logout at an upstream SAML 2 identity provider (scripted)', () => {
  let idp: ScriptedIdp;
  let tessera: Tessera;
  let base: string;
  let sp: SamlCredential;
  let stranger: SamlCredential;
  let folder: string;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tessera-delegation-saml2-logout-'));
    idp = await ScriptedIdp.create(folder);
    stranger = await samlCredential('CN=not the idp');
    sp = await samlCredential('CN=tessera sp');
    writeFileSync(join(folder, 'sp.key'), sp.privateKey, { mode: 0o600 });
    writeFileSync(join(folder, 'sp.crt'), sp.certificate);
    const port = await freePort();
    base = `http://localhost:${port}/cas`;
    const saml2 = { metadata: idp.metadataFile, idpEntityId: IDP_ENTITY_ID, keyFile: join(folder, 'sp.key'), certificateFile: join(folder, 'sp.crt'), nameIdFormat: PERSISTENT };
    tessera = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://localhost:${port}` },
      delegation: {
        providers: [
          { id: PROVIDER, type: 'saml2', title: 'Partner federation', saml2, logout: true },
          { id: 'no-logout', type: 'saml2', title: 'Without logout', saml2 },
        ],
      },
    });
  });
  after(async () => {
    await tessera?.close();
  });

  /** Logs alice in through `provider` (the Response made by `respond`), for APP: the ticket's validation. */
  async function logIn(browser: Browser, provider = PROVIDER, respond?: (options: Parameters<ScriptedIdp['response']>[0]) => Promise<string>) {
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    const left = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: provider });
    expect(left.status, left.body).to.equal(302);
    const request = sentRequest(left.location!);
    const options = { inResponseTo: request.id, destination: request.assertionConsumerServiceUrl, audience: request.issuer, nameId: 'alice-at-partner', sessionIndex: '_session-of-alice', attributes: { mail: ['alice@partner.example'] } };
    const SAMLResponse = respond === undefined ? idp.response(options) : await respond(options);
    const posted = await browser.post(`${base}/delegation/callback/${provider}`, { SAMLResponse, RelayState: request.relayState });
    const back = await browser.submit(posted);
    expect(back.status, back.body).to.equal(200);
    const landing = await browser.submit(back);
    expect(landing.status, landing.body).to.equal(302);
    return validate(base, APP, new URL(landing.location!).searchParams.get('ticket')!);
  }

  /** Logs alice in and out at tessera (for APP): the LogoutRequest the browser is sent to the IdP with. */
  async function logInAndOut(browser: Browser): Promise<SentLogoutRequest> {
    await logIn(browser);
    const logout = await browser.get(`${base}/logout?service=${encodeURIComponent(APP)}`);
    expect(logout.status, logout.body).to.equal(302);
    return sentLogoutRequest(logout.location!);
  }

  const answerTo = (request: SentLogoutRequest, options: Partial<LogoutResponseOptions> = {}): LogoutResponseOptions => ({ inResponseTo: request.id, destination: `${base}/delegation/logout`, ...options });

  /**
   * Each case's answer, in a browser of its own that logged in and out: the "not confirmed" page,
   * audited, tessera's session gone, and the state used (the right answer afterwards goes to /logout
   * alone). Returns the other logout the cases may answer instead.
   */
  async function expectNeverConfirmed(cases: readonly AnswerCase[]): Promise<SentLogoutRequest> {
    const other = await logInAndOut(new Browser());
    for (const [name, make] of cases) {
      const browser = new Browser();
      const request = await logInAndOut(browser);
      const before = unconfirmed();
      const answered = await make(request, other)(browser);
      expect(answered.status, name).to.equal(200);
      expectUnconfirmedPage(answered);
      expect(unconfirmed(), name).to.equal(before + 1);
      expect((await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`)).status, name).to.equal(200);
      const late = await browser.get(idp.redirectedLogoutResponse(answerTo(request), request.relayState));
      expect(late.location, name).to.equal(`${base}/logout`);
    }
    return other;
  }
  const unconfirmed = () => AUDIT(tessera.audit, 'delegation.logout.failed').filter((record) => record['who'] === PROVIDER).length;

  /** The page saying tessera's logout is done but the IdP did not confirm its own. */
  function expectUnconfirmedPage(visit: { status: number; body: string }): void {
    expect(visit.status, visit.body).to.equal(200);
    expect(headingOf(visit.body)).to.equal('You are logged out');
    expect(visit.body).to.include('did not confirm that it ended your session there');
    expect(visit.body).to.include(`href="${base}/logout?service=${encodeURIComponent(APP)}"`.replaceAll('&', '&amp;'));
  }

  it('after tessera’s logout, sends a signed LogoutRequest over HTTP-Redirect to the IdP’s SingleLogoutService naming the login’s NameID and SessionIndex; the signed LogoutResponse back (HTTP-Redirect) goes on to /logout and the service; its state is used once', async () => {
    const browser = new Browser();
    const request = await logInAndOut(browser);
    expect(`${request.url.origin}${request.url.pathname}`).to.equal(IDP_SLO_URL);
    expect(request.destination).to.equal(IDP_SLO_URL);
    expect(request.issuer).to.equal(`${base}/delegation/saml2/${PROVIDER}/metadata`);
    expect(request.nameId).to.equal('alice-at-partner');
    expect(request.nameIdFormat).to.equal(PERSISTENT);
    expect(request.sessionIndex).to.equal('_session-of-alice');
    expect(request.relayState).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(request.query.get('SigAlg')).to.equal('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(request.signedBy(sp.certificate)).to.equal(true);
    expect(request.signedBy(stranger.certificate)).to.equal(false);
    // tessera's session ended before the browser left.
    const sso = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    expect(sso.status).to.equal(200);

    const back = await browser.get(idp.redirectedLogoutResponse(answerTo(request), request.relayState));
    expect(back.status, back.body).to.equal(302);
    expect(back.location).to.equal(`${base}/logout?service=${encodeURIComponent(APP)}`);
    const onward = await browser.get(back.location!);
    expect(onward.location).to.equal(APP);
    // The state is used: the same answer again goes to the logged-out page alone, unchecked.
    const replayed = await browser.get(idp.redirectedLogoutResponse(answerTo(request), request.relayState));
    expect(replayed.status).to.equal(302);
    expect(replayed.location).to.equal(`${base}/logout`);
  });

  it('takes the LogoutResponse posted back (HTTP-POST, as tessera’s metadata publishes its SingleLogoutService) and goes on to the service', async () => {
    const metadata = await new Browser().get(`${base}/delegation/saml2/${PROVIDER}/metadata`);
    expect(metadata.body).to.match(new RegExp(`<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${base}/delegation/logout"/>`));
    const without = await new Browser().get(`${base}/delegation/saml2/no-logout/metadata`);
    expect(without.body).to.not.include('SingleLogoutService');

    const browser = new Browser();
    const request = await logInAndOut(browser);
    const back = await browser.post(`${base}/delegation/logout`, { SAMLResponse: idp.postedLogoutResponse(answerTo(request)), RelayState: request.relayState });
    expect(back.status, back.body).to.equal(302);
    expect(back.location).to.equal(`${base}/logout?service=${encodeURIComponent(APP)}`);
  });

  it('a LogoutResponse that does not confirm the logout (unsigned, signed by another key, to another request, from another issuer, a failure): the logged-out page saying so, audited; tessera’s session is gone all the same', async () => {
    const cases: AnswerCase[] = [
      ['unsigned redirect', (request) => (browser) => browser.get(idp.redirectedLogoutResponse(answerTo(request, { sign: false }), request.relayState))],
      ['redirect signed by another key', (request) => (browser) => browser.get(idp.redirectedLogoutResponse(answerTo(request, { signer: stranger }), request.relayState))],
      ['unsigned post', (request) => (browser) => browser.post(`${base}/delegation/logout`, { SAMLResponse: idp.postedLogoutResponse(answerTo(request, { sign: false })), RelayState: request.relayState })],
      ['post signed by another key', (request) => (browser) => browser.post(`${base}/delegation/logout`, { SAMLResponse: idp.postedLogoutResponse(answerTo(request, { signer: stranger })), RelayState: request.relayState })],
      ['answer to another logout', (request, other) => (browser) => browser.get(idp.redirectedLogoutResponse(answerTo(other), request.relayState))],
      ['answer to no request', (request) => (browser) => browser.post(`${base}/delegation/logout`, { SAMLResponse: idp.postedLogoutResponse(answerTo(request, { inResponseTo: undefined })), RelayState: request.relayState })],
      ['another issuer', (request) => (browser) => browser.post(`${base}/delegation/logout`, { SAMLResponse: idp.postedLogoutResponse(answerTo(request, { issuer: 'https://other.example/idp' })), RelayState: request.relayState })],
      ['a failure', (request) => (browser) => browser.get(idp.redirectedLogoutResponse(answerTo(request, { status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }), request.relayState))],
      ['no answer at all', (request) => (browser) => browser.get(`${base}/delegation/logout?state=${request.relayState}`)],
    ];
    await expectNeverConfirmed(cases);
    const detail = AUDIT(tessera.audit, 'delegation.logout.failed').map((record) => JSON.stringify(record)).join('\n');
    expect(detail).to.not.include('alice-at-partner');
  });

  it('a hostile LogoutResponse (wrapped, a second one, a DOCTYPE, nested deep, not base64, a SAMLRequest, twice, signed for another SP) never confirms and uses its state; one too large is 413; forwarded headers do not move the way on; no log line holds the SessionIndex, a state, a request ID or the message', async () => {
    const post = (browser: Browser, fields: Record<string, string>) => browser.post(`${base}/delegation/logout`, fields);
    const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
    const signedXml = (options: LogoutResponseOptions) => idp.logoutResponse(options, true);
    const cases: AnswerCase[] = [
      ['a signed answer to another logout wrapped in an unsigned one to this', (request, other) => (browser) =>
        post(browser, { SAMLResponse: b64(idp.logoutResponse(answerTo(request), false).replace('<samlp:Status>', `<samlp:Extensions>${signedXml(answerTo(other))}</samlp:Extensions><samlp:Status>`)), RelayState: request.relayState })],
      ['a signed answer to another logout with an unsigned Status and InResponseTo moved in', (request, other) => (browser) =>
        post(browser, { SAMLResponse: b64(signedXml(answerTo(other, { status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' })).replace('<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"/></samlp:Status>', '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>')), RelayState: request.relayState })],
      ['a second, unsigned LogoutResponse after the signed one', (request, other) => (browser) =>
        post(browser, { SAMLResponse: b64(signedXml(answerTo(other)) + idp.logoutResponse(answerTo(request), false)), RelayState: request.relayState })],
      ['a DOCTYPE with entities', (request) => (browser) =>
        post(browser, { SAMLResponse: b64(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>${signedXml(answerTo(request)).replace(IDP_ENTITY_ID, `${IDP_ENTITY_ID}&c;`)}`), RelayState: request.relayState })],
      ['nested 6000 deep', (request) => (browser) =>
        post(browser, { SAMLResponse: b64(idp.logoutResponse(answerTo(request), false).replace('<samlp:Status>', `${'<x>'.repeat(6000)}${'</x>'.repeat(6000)}<samlp:Status>`)), RelayState: request.relayState })],
      ['not base64', (request) => (browser) => post(browser, { SAMLResponse: '%%%***!!!', RelayState: request.relayState })],
      ['a SAMLRequest posted where a LogoutResponse is expected', (request) => (browser) => post(browser, { SAMLRequest: b64(idp.logoutResponse(answerTo(request), false)), RelayState: request.relayState })],
      ['a SAMLRequest over HTTP-Redirect with the state', (request) => (browser) => browser.get(`${base}/delegation/logout?SAMLRequest=abc&state=${request.relayState}`)],
      ['SAMLResponse given twice over HTTP-Redirect', (request) => (browser) => browser.get(`${idp.redirectedLogoutResponse(answerTo(request), request.relayState)}&SAMLResponse=abc`)],
      ['a redirect deflated from garbage', (request) => (browser) => browser.get(`${base}/delegation/logout?SAMLResponse=${'A'.repeat(4000)}&RelayState=${request.relayState}&SigAlg=x&Signature=y`)],
      ['signed, to another SP', (request) => (browser) => post(browser, { SAMLResponse: idp.postedLogoutResponse(answerTo(request, { destination: 'https://other-sp.example/slo' })), RelayState: request.relayState })],
      ['signed over HTTP-Redirect, to another SP', (request) => (browser) => browser.get(idp.redirectedLogoutResponse(answerTo(request, { destination: 'https://other-sp.example/slo' }), request.relayState).replace('https://other-sp.example/slo', `${base}/delegation/logout`))],
    ];
    const other = await expectNeverConfirmed(cases);
    // Beyond server.maxBodyBytes: refused before anything is read, the state left as it was.
    const browser = new Browser();
    const request = await logInAndOut(browser);
    expect((await post(browser, { SAMLResponse: 'A'.repeat(200_000), RelayState: request.relayState })).status).to.equal(413);
    // Forwarded headers from the browser do not move where it goes on to.
    const forwarded = await new Browser({ 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }).get(idp.redirectedLogoutResponse(answerTo(request), request.relayState));
    expect(forwarded.location).to.equal(`${base}/logout?service=${encodeURIComponent(APP)}`);

    const logged = [...tessera.logs, ...tessera.audit].join('\n');
    for (const secret of ['_session-of-alice', other.relayState, request.relayState, other.id, '<samlp:', 'PHNhbWxw']) expect(logged, secret).to.not.include(secret);
    const failures = AUDIT(tessera.audit, 'delegation.logout.failed').map((record) => JSON.stringify(record)).join('\n');
    expect(failures).to.not.include('alice-at-partner');
  });

  it('the "not confirmed" page escapes the service it links on to (through tessera’s /logout, under a CSP without scripts), and links nowhere for a service /logout does not know', async () => {
    for (const [service, link] of [
      [`${APP}?q="><script>alert(1)</script>`, `href="${base}/logout?service=${encodeURIComponent(`${APP}?q="><script>alert(1)</script>`)}"`],
      ['https://evil.example.net/', undefined],
      ['javascript:alert(1)', undefined],
    ] as const) {
      const browser = new Browser();
      await logIn(browser);
      const request = sentLogoutRequest((await browser.get(`${base}/logout?service=${encodeURIComponent(service)}`)).location!);
      const page = await browser.get(idp.redirectedLogoutResponse(answerTo(request, { sign: false }), request.relayState));
      expect(page.status, service).to.equal(200);
      expect(page.headers.get('content-security-policy'), service).to.include("script-src 'none'");
      expect(page.body, service).to.not.include('<script>alert');
      expect(page.body.match(/<a [^>]*>/g), service).to.deep.equal(link === undefined ? null : [`<a ${link}>`]);
    }
  });

  it('takes an encrypted assertion (xml-encryption, AES-256-GCM and RSA-OAEP, as tessera’s own IdP encrypts), decrypted with tessera’s key; one encrypted for another key is refused', async () => {
    const validated = await logIn(new Browser(), 'no-logout', (options) => idp.encryptedResponse(options, sp.certificate));
    expect(validated.user).to.equal('alice-at-partner');
    expect(validated.attributes?.['mail']).to.deep.equal(['alice@partner.example']);

    const browser = new Browser();
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    const left = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: 'no-logout' });
    const request = sentRequest(left.location!);
    const SAMLResponse = await idp.encryptedResponse({ inResponseTo: request.id, destination: request.assertionConsumerServiceUrl, audience: request.issuer, nameId: 'mallory' }, stranger.certificate);
    const refused = await browser.submit(await browser.post(`${base}/delegation/callback/no-logout`, { SAMLResponse, RelayState: request.relayState }));
    expect(refused.status, refused.body).to.equal(401);
  });

  it('refuses at startup a SAML 2 logout whose IdP metadata has no SingleLogoutService', async () => {
    const bare = await ScriptedIdp.create(folder, { singleLogout: false });
    const saml2 = { metadata: bare.metadataFile, idpEntityId: IDP_ENTITY_ID, keyFile: join(folder, 'sp.key'), certificateFile: join(folder, 'sp.crt') };
    let failure: unknown;
    try {
      const started = await startDelegation({ delegation: { providers: [{ id: 'bare', type: 'saml2', title: 'Bare', saml2, logout: true }] } });
      await started.close();
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).to.include('delegation provider bare: logout: the metadata of https://idp.partner.example/saml2/idp has no SingleLogoutService over HTTP-Redirect');
  });
});
