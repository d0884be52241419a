import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { samlCredential, type SamlCredential } from '@tessera/testkit/modules/saml2';
import { Browser, formOf, headingOf, type Visit } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { validate } from '../login/support.js';
import { freePort, startDelegation } from './support.js';
import { IDP_ENTITY_ID, IDP_SSO_URL, ScriptedIdp, sentRequest, type ResponseOptions, type SentRequest } from './scripted-idp.js';

const PROVIDER = 'partner-saml';
const AUDIT = (lines: readonly string[], action: string) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record['action'] === action);

// docs/modules/delegation.md: a login through an upstream SAML 2 identity provider, here a scripted one
// (its Responses signed with xml-crypto as a real IdP signs them, or made wrong on purpose).
describe('delegation: logging in through an upstream SAML 2 identity provider (scripted)', () => {
  let idp: ScriptedIdp;
  let tessera: Tessera;
  let base: string;
  let callback: string;
  let spEntityId: string;
  let stranger: SamlCredential;

  before(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tessera-delegation-saml2-'));
    idp = await ScriptedIdp.create(folder);
    stranger = await samlCredential('CN=not the idp');
    const sp = await samlCredential('CN=tessera sp');
    writeFileSync(join(folder, 'sp.key'), sp.privateKey, { mode: 0o600 });
    writeFileSync(join(folder, 'sp.crt'), sp.certificate);
    const port = await freePort();
    base = `http://localhost:${port}/cas`;
    callback = `${base}/delegation/callback/${PROVIDER}`;
    spEntityId = `${base}/delegation/saml2/${PROVIDER}/metadata`;
    const saml2 = { metadata: idp.metadataFile, idpEntityId: IDP_ENTITY_ID, keyFile: join(folder, 'sp.key'), certificateFile: join(folder, 'sp.crt'), signAuthnRequests: true, nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' };
    tessera = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://localhost:${port}` },
      delegation: {
        providers: [
          { id: PROVIDER, type: 'saml2', title: 'Partner federation', saml2, attributes: { mail: 'mail', eduPersonAffiliation: 'memberOf' } },
          { id: 'response-signed', type: 'saml2', title: 'Signed responses only', saml2: { metadata: idp.metadataFile, idpEntityId: IDP_ENTITY_ID, wantResponseSigned: true, wantAssertionsSigned: false } },
          { id: 'saml-down', type: 'saml2', title: 'Down', saml2: { metadata: 'http://127.0.0.1:9/metadata', idpEntityId: IDP_ENTITY_ID }, timeoutSeconds: 2 },
          { id: 'partner-cas', type: 'cas', title: 'Partner CAS', cas: { serverUrl: 'https://cas.partner.example/cas' } },
        ],
      },
    });
  });
  after(async () => {
    await tessera?.close();
  });

  /** The login page of APP, left for `provider`: the redirect to the IdP and the AuthnRequest in it. */
  async function leave(browser: Browser, provider = PROVIDER): Promise<{ readonly left: Visit; readonly request: SentRequest }> {
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    const left = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: provider });
    expect(left.status, left.body).to.equal(302);
    return { left, request: sentRequest(left.location!) };
  }

  /** The Response posted to the callback as the IdP's page posts it (cross-site), then posted again by tessera's own page. */
  async function answer(browser: Browser, request: SentRequest, options: Partial<ResponseOptions> = {}, provider = PROVIDER): Promise<Visit> {
    const SAMLResponse = idp.response({ inResponseTo: request.id, destination: request.assertionConsumerServiceUrl, audience: request.issuer, nameId: 'alice-at-partner', attributes: { mail: ['alice@partner.example'], eduPersonAffiliation: ['staff', 'member'], secret: ['not released'] }, ...options });
    const posted = await browser.post(`${base}/delegation/callback/${provider}`, { SAMLResponse, RelayState: request.relayState });
    expect(posted.status, posted.body).to.equal(200);
    const form = formOf(posted.body);
    expect(form.action).to.equal(`/cas/delegation/callback/${provider}`);
    expect(form.hidden).to.deep.equal({ SAMLResponse, RelayState: request.relayState, delegationPostedAgain: 'true' });
    return browser.submit(posted);
  }

  const failedFor = (provider: string, reason: string) => AUDIT(tessera.audit, 'delegation.failed').filter((record) => record['who'] === provider && JSON.stringify(record).includes(`"${reason}"`)).length;

  it('sends a signed AuthnRequest over HTTP-Redirect and takes the signed Response posted back: a session, the NameID as the user, the mapped attributes', async () => {
    const browser = new Browser();
    const { left, request } = await leave(browser);
    const redirect = new URL(left.location!);
    expect(`${redirect.origin}${redirect.pathname}`).to.equal(IDP_SSO_URL);
    expect(request.query.get('SigAlg')).to.equal('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(request.query.get('Signature')).to.have.length.greaterThan(100);
    expect(request.issuer).to.equal(spEntityId);
    expect(request.assertionConsumerServiceUrl).to.equal(callback);
    expect(request.xml).to.include('Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"');
    expect(request.relayState).to.have.length.greaterThan(20);

    const back = await answer(browser, request, { sessionIndex: '_session-of-alice' });
    expect(back.status, back.body).to.equal(200);
    const landing = await browser.submit(back);
    expect(landing.status, landing.body).to.equal(302);
    const validated = await validate(base, APP, new URL(landing.location!).searchParams.get('ticket')!);
    expect(validated.user).to.equal('alice-at-partner');
    expect(validated.attributes?.['mail']).to.deep.equal(['alice@partner.example']);
    expect(validated.attributes?.['memberOf']).to.deep.equal(['staff', 'member']);
    expect(validated.attributes?.['secret']).to.equal(undefined);
    expect(validated.attributes?.['delegatedProvider']).to.deep.equal([PROVIDER]);
    expect(AUDIT(tessera.audit, 'delegation.proved').map((record) => record['who'])).to.include('alice-at-partner');
  });

  it('publishes tessera’s SP metadata for the IdP: entity id, the callback over HTTP-POST, signed requests with the certificate, signed assertions wanted; none for another provider', async () => {
    const response = await fetch(`${base}/delegation/saml2/${PROVIDER}/metadata`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/samlmetadata\+xml/);
    const xml = await response.text();
    expect(xml).to.include(`entityID="${spEntityId}"`);
    expect(xml).to.match(new RegExp(`<AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${callback}"`));
    expect(xml).to.include('AuthnRequestsSigned="true"');
    expect(xml).to.include('WantAssertionsSigned="true"');
    expect(xml).to.include('<ds:X509Certificate>');
    expect((await fetch(`${base}/delegation/saml2/partner-cas/metadata`)).status).to.equal(404);
    expect((await fetch(`${base}/delegation/saml2/nobody/metadata`)).status).to.equal(404);
  });

  it('refuses an unsigned Response, one signed with another key, and one whose Response is unsigned where signed Responses are required: a page, audited, no session', async () => {
    for (const [provider, options] of [
      [PROVIDER, { signAssertion: false }],
      [PROVIDER, { signer: stranger, signResponse: true }],
      ['response-signed', { signAssertion: true, signResponse: false }],
    ] as const) {
      const browser = new Browser();
      const { request } = await leave(browser, provider);
      const before = failedFor(provider, 'invalid');
      const refused = await answer(browser, request, options, provider);
      expect(refused.status, `${provider} ${JSON.stringify(options)}: ${refused.body}`).to.equal(401);
      expect(headingOf(refused.body)).to.equal('The login did not succeed');
      expect(refused.body).to.include('could not be trusted');
      expect(refused.body).to.include(`href="/cas/login?service=${encodeURIComponent(APP)}"`);
      expect(await browser.cookie(base, 'TGC')).to.equal(undefined);
      expect(failedFor(provider, 'invalid')).to.equal(before + 1);
    }
    // Where signed Responses are required, a signed one is taken.
    const browser = new Browser();
    const { request } = await leave(browser, 'response-signed');
    expect((await answer(browser, request, { signAssertion: false, signResponse: true }, 'response-signed')).status).to.equal(200);
  });

  it('refuses a Response for another audience, from another issuer, expired, not yet valid, or with a status of failure', async () => {
    const cases: [Partial<ResponseOptions>, number, string][] = [
      [{ audience: 'https://other-sp.example.org/sp' }, 401, 'invalid'],
      [{ issuer: 'https://other-idp.example.org/idp' }, 401, 'invalid'],
      [{ now: Date.now() - 10 * 60 * 1000 }, 401, 'invalid'],
      [{ now: Date.now() + 10 * 60 * 1000 }, 401, 'invalid'],
      [{ status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }, 401, 'refused'],
    ];
    for (const [options, status, reason] of cases) {
      const browser = new Browser();
      const { request } = await leave(browser);
      const before = failedFor(PROVIDER, reason);
      const refused = await answer(browser, request, options);
      expect(refused.status, `${JSON.stringify(options)}: ${refused.body}`).to.equal(status);
      expect(await browser.cookie(base, 'TGC')).to.equal(undefined);
      expect(failedFor(PROVIDER, reason), JSON.stringify(options)).to.equal(before + 1);
    }
  });

  it('refuses a Response to another request (an earlier login’s), an unsolicited one, and a replayed one', async () => {
    const browser = new Browser();
    const earlier = (await leave(browser)).request;
    const { request } = await leave(browser);
    const forAnother = await answer(browser, request, { inResponseTo: earlier.id });
    expect(forAnother.status, forAnother.body).to.equal(401);

    const unsolicitedBrowser = new Browser();
    const unsolicited = await answer(unsolicitedBrowser, (await leave(unsolicitedBrowser)).request, { inResponseTo: undefined });
    expect(unsolicited.status, unsolicited.body).to.equal(401);

    // A good Response, used once, then posted again: the login's state is gone.
    const replaying = new Browser();
    const fresh = (await leave(replaying)).request;
    const SAMLResponse = idp.response({ inResponseTo: fresh.id, destination: callback, audience: spEntityId, nameId: 'bob-at-partner' });
    const once = await replaying.post(callback, { SAMLResponse, RelayState: fresh.relayState, delegationPostedAgain: 'true' });
    expect(once.status, once.body).to.equal(200);
    const before = failedFor(PROVIDER, 'state');
    const again = await replaying.post(callback, { SAMLResponse, RelayState: fresh.relayState, delegationPostedAgain: 'true' });
    expect(again.status, again.body).to.equal(400);
    expect(again.body).to.include('This login has expired, was already used');
    expect(failedFor(PROVIDER, 'state')).to.equal(before + 1);
  });

  it('binds the Response to the browser that left: posted again without its cookie, it is refused', async () => {
    const { request } = await leave(new Browser());
    const other = new Browser();
    const SAMLResponse = idp.response({ inResponseTo: request.id, destination: callback, audience: spEntityId, nameId: 'mallory' });
    const refused = await other.post(callback, { SAMLResponse, RelayState: request.relayState, delegationPostedAgain: 'true' });
    expect(refused.status, refused.body).to.equal(400);
    expect(refused.body).to.include('started in another browser');
    expect(await other.cookie(base, 'TGC')).to.equal(undefined);
  });

  it('answers each way only as the provider does: a post to a CAS provider’s callback and a GET to a SAML 2 one are refused before the state is read', async () => {
    const browser = new Browser();
    const { request } = await leave(browser);
    const posted = await browser.post(`${base}/delegation/callback/partner-cas`, { SAMLResponse: 'x', RelayState: request.relayState, delegationPostedAgain: 'true' });
    expect(posted.status, posted.body).to.equal(400);
    const got = await browser.get(`${callback}?state=${encodeURIComponent(request.relayState)}`);
    expect(got.status, got.body).to.equal(400);
    // The login still waits: its Response is taken.
    const back = await answer(browser, request);
    expect(back.status, back.body).to.equal(200);
  });

  it('answers an IdP whose metadata cannot be read with a page, audited, not a 500; a body past server.maxBodyBytes is 413', async () => {
    const browser = new Browser();
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    const before = failedFor('saml-down', 'unavailable');
    const left = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: 'saml-down' });
    expect(left.status, left.body).to.equal(502);
    expect(left.body).to.include('could not be reached');
    expect(failedFor('saml-down', 'unavailable')).to.equal(before + 1);

    const huge = await browser.post(callback, { SAMLResponse: 'A'.repeat(70_000), RelayState: 'x' });
    expect(huge.status).to.equal(413);
  });
});

describeWithRedis('delegation through a SAML 2 identity provider on Redis, two nodes: leave at one, the Response posted to the other', (redis) => {
  let idp: ScriptedIdp;
  let nodes: Tessera[] = [];
  let publicBase: string;

  before(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tessera-delegation-saml2-redis-'));
    idp = await ScriptedIdp.create(folder);
    const ports = [await freePort(), await freePort()];
    publicBase = `http://localhost:${ports[0]}/cas`;
    const shared = {
      login: { key: Buffer.alloc(32, 9).toString('base64url') },
      storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `delegation-saml${Math.random().toString(36).slice(2, 8)}:` } },
      delegation: { providers: [{ id: PROVIDER, type: 'saml2', title: 'Partner federation', saml2: { metadata: idp.metadataFile, idpEntityId: IDP_ENTITY_ID } }] },
    };
    nodes = await Promise.all(ports.map((port) => startDelegation({ server: { host: '127.0.0.1', port, nodeName: `n${port}`, publicUrl: `http://localhost:${ports[0]}` }, ...shared })));
  });
  after(async () => {
    for (const node of nodes) await node.close();
  });

  it('takes the Response at the other node, in response to the request the first node made, and makes the session there', async () => {
    const [first, second] = nodes.map((node) => `http://localhost:${new URL(node.url).port}/cas`) as [string, string];
    const browser = new Browser();
    const page = await browser.get(`${first}/login?service=${encodeURIComponent(APP)}`);
    const left = await browser.post(`${first}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: PROVIDER });
    expect(left.status, left.body).to.equal(302);
    const request = sentRequest(left.location!);
    expect(request.assertionConsumerServiceUrl).to.equal(`${publicBase}/delegation/callback/${PROVIDER}`);
    const SAMLResponse = idp.response({ inResponseTo: request.id, destination: request.assertionConsumerServiceUrl, audience: request.issuer, nameId: 'dora-at-partner' });
    const posted = await browser.post(`${second}/delegation/callback/${PROVIDER}`, { SAMLResponse, RelayState: request.relayState });
    const back = await browser.submit(posted);
    expect(back.status, back.body).to.equal(200);
    const landing = await browser.submit(back);
    expect(landing.status, landing.body).to.equal(302);
    const validated = await validate(second, APP, new URL(landing.location!).searchParams.get('ticket')!);
    expect(validated.user).to.equal('dora-at-partner');
  });
});
