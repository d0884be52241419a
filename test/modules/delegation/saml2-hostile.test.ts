import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Browser, formOf, type Visit } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { validate } from '../login/support.js';
import { freePort, startDelegation } from './support.js';
import { IDP_ENTITY_ID, ScriptedIdp, sentRequest, type ResponseOptions, type SentRequest } from './scripted-idp.js';

const PROVIDER = 'partner-saml';
const xmlOf = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');
const base64Of = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

// A hostile review of the SAML 2 upstream: Responses an attacker reworks from a good one (signature
// wrapping, comments, entities), and what the posted-again page reflects, at a running server.
describe('delegation: hostile SAML 2 Responses at the callback', () => {
  let idp: ScriptedIdp;
  let tessera: Tessera;
  let base: string;
  let callback: string;
  let spEntityId: string;

  before(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tessera-delegation-saml2-hostile-'));
    idp = await ScriptedIdp.create(folder);
    const port = await freePort();
    base = `http://localhost:${port}/cas`;
    callback = `${base}/delegation/callback/${PROVIDER}`;
    spEntityId = `${base}/delegation/saml2/${PROVIDER}/metadata`;
    tessera = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://localhost:${port}`, trustProxy: true, maxBodyBytes: 4 * 1024 * 1024 },
      delegation: {
        providers: [
          { id: PROVIDER, type: 'saml2', title: 'Partner federation', saml2: { metadata: idp.metadataFile, idpEntityId: IDP_ENTITY_ID } },
          { id: 'response-signed', type: 'saml2', title: 'Signed responses only', saml2: { metadata: idp.metadataFile, idpEntityId: IDP_ENTITY_ID, wantResponseSigned: true, wantAssertionsSigned: false } },
          { id: 'either-signed', type: 'saml2', title: 'Neither required', saml2: { metadata: idp.metadataFile, idpEntityId: IDP_ENTITY_ID, wantResponseSigned: false, wantAssertionsSigned: false } },
        ],
      },
    });
  });
  after(async () => {
    await tessera?.close();
  });

  async function leave(browser: Browser, provider = PROVIDER): Promise<SentRequest> {
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    const left = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: provider });
    expect(left.status, left.body).to.equal(302);
    return sentRequest(left.location!);
  }

  /** A good Response to `request`, as the IdP signs it, for `nameId`. */
  const goodResponse = (request: SentRequest, nameId: string, options: Partial<ResponseOptions> = {}) => idp.response({ inResponseTo: request.id, destination: request.assertionConsumerServiceUrl, audience: request.issuer, nameId, ...options });

  /** Posts `SAMLResponse` back as tessera's own page posts it again, with the browser's cookie. */
  const postBack = (browser: Browser, request: SentRequest, SAMLResponse: string, provider = PROVIDER) =>
    browser.post(`${base}/delegation/callback/${provider}`, { SAMLResponse, RelayState: request.relayState, delegationPostedAgain: 'true' });

  /** The user a page back from upstream logs in (its proof posted to the login form), or undefined when the page is a refusal. */
  async function userOf(browser: Browser, back: Visit): Promise<string | undefined> {
    if (back.status !== 200) return undefined;
    const landing = await browser.submit(back);
    expect(landing.status, landing.body).to.equal(302);
    return (await validate(base, APP, new URL(landing.location!).searchParams.get('ticket')!)).user;
  }

  /** An unsigned copy of the signed assertion in `xml`, naming `nameId`, with a fresh ID. */
  function evilAssertion(xml: string, nameId: string): string {
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
    return assertion
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
      .replace(/ ID="[^"]+"/, ' ID="_evil"')
      .replace(/(<saml:NameID[^>]*>)[^<]*/, `$1${nameId}`);
  }

  const wrappings: Record<string, (xml: string) => string> = {
    'a second, unsigned assertion before the signed one': (xml) => xml.replace('<saml:Assertion', `${evilAssertion(xml, 'admin')}<saml:Assertion`),
    'a second, unsigned assertion after the signed one': (xml) => xml.replace('</samlp:Response>', `${evilAssertion(xml, 'admin')}</samlp:Response>`),
    'the signed assertion moved into an unsigned one (inside its Subject)': (xml) => {
      const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
      const evil = evilAssertion(xml, 'admin').replace('<saml:Subject>', `<saml:Subject>${signed}`);
      return xml.replace(signed, evil);
    },
    'the signed assertion moved into its own Signature’s Object, an unsigned one around it': (xml) => {
      const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
      return xml.replace(signed, evilAssertion(xml, 'admin').replace('</saml:Issuer>', `</saml:Issuer><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:Object>${signed}</ds:Object></ds:Signature>`));
    },
    'the signed assertion moved into the Response’s Extensions, an unsigned one in its place': (xml) => {
      const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
      return xml.replace(signed, evilAssertion(xml, 'admin')).replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`);
    },
  };

  for (const [name, wrap] of Object.entries(wrappings)) {
    it(`signature wrapping, ${name}: refused, admin never logged in`, async () => {
      const browser = new Browser();
      const request = await leave(browser);
      const back = await postBack(browser, request, base64Of(wrap(xmlOf(goodResponse(request, 'alice-at-partner')))));
      expect(await userOf(browser, back)).to.not.equal('admin');
      expect(back.status, back.body).to.equal(401);
    });
  }

  it('signature wrapping of a signed Response (provider wanting signed Responses): a new unsigned Response around the signed one is refused', async () => {
    const browser = new Browser();
    const request = await leave(browser, 'response-signed');
    const signed = xmlOf(goodResponse(request, 'alice-at-partner', { signResponse: true, signAssertion: false })).replace(/^<\?xml[^>]*>/, '');
    const evilAssertionXml = evilAssertion(signed.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, ''), 'admin');
    const wrapped = signed
      .replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, evilAssertionXml)
      .replace(/ ID="[^"]+"/, ' ID="_evil-response"')
      .replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`)
      .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>(?=<samlp:Extensions>)/, '');
    const back = await postBack(browser, request, base64Of(wrapped), 'response-signed');
    expect(await userOf(browser, back)).to.not.equal('admin');
    expect(back.status, back.body).to.equal(401);
  });

  it('neither the Response nor the assertion required signed: an unsigned Response is still refused, a signed one taken', async () => {
    const browser = new Browser();
    const request = await leave(browser, 'either-signed');
    const unsigned = await postBack(browser, request, goodResponse(request, 'admin', { signAssertion: false }), 'either-signed');
    expect(unsigned.status, unsigned.body).to.equal(401);
    const again = await leave(browser, 'either-signed');
    expect(await userOf(browser, await postBack(browser, again, goodResponse(again, 'alice-at-partner'), 'either-signed'))).to.equal('alice-at-partner');
  });

  it('a comment inside the signed NameID (admin<!---->.evil): the user is the whole NameID or no one, never admin', async () => {
    const browser = new Browser();
    const request = await leave(browser);
    const xml = xmlOf(goodResponse(request, 'admin.evil')).replace('>admin.evil<', '>admin<!---->.evil<');
    const back = await postBack(browser, request, base64Of(xml));
    expect(await userOf(browser, back)).to.be.oneOf([undefined, 'admin.evil']);
  });

  it('a DOCTYPE with entity expansion (billion laughs) is refused quickly, the server stays up', async () => {
    const browser = new Browser();
    const request = await leave(browser);
    const entities = ['<!ENTITY l0 "lollollollollollollollollollol">', ...Array.from({ length: 9 }, (_, level) => `<!ENTITY l${level + 1} "${`&l${level};`.repeat(10)}">`)].join('');
    const xml = xmlOf(goodResponse(request, 'alice-at-partner')).replace(/^(<\?xml[^>]*>)?/, `<?xml version="1.0"?><!DOCTYPE samlp:Response [${entities}]>`).replace('>alice-at-partner<', '>&l9;<');
    const back = await postBack(browser, request, base64Of(xml));
    expect(back.status, back.body).to.equal(401);
    expect((await new Browser().get(`${base}/login`)).status).to.equal(200);
  });

  it('an external entity (XXE) naming a local file is not read: refused, the file’s content nowhere', async () => {
    const browser = new Browser();
    const request = await leave(browser);
    const xml = xmlOf(goodResponse(request, 'alice-at-partner')).replace(/^(<\?xml[^>]*>)?/, '<?xml version="1.0"?><!DOCTYPE samlp:Response [<!ENTITY xxe SYSTEM "file:///etc/hostname">]>').replace('>alice-at-partner<', '>&xxe;<');
    const back = await postBack(browser, request, base64Of(xml));
    expect(back.status, back.body).to.equal(401);
    expect(await userOf(browser, back)).to.equal(undefined);
  });

  it('a deeply nested SAMLResponse (100 000 levels) and a huge one are refused with a page, the server stays up', async () => {
    for (const xml of [`<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</samlp:Response>`, `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">${'<a/>'.repeat(600_000)}</samlp:Response>`]) {
      const browser = new Browser();
      const request = await leave(browser);
      const back = await postBack(browser, request, base64Of(xml));
      expect(back.status, back.body).to.equal(401);
    }
    expect((await new Browser().get(`${base}/login`)).status).to.equal(200);
  });

  it('a SAMLResponse that is no base64, or no XML: refused with a page (401)', async () => {
    for (const SAMLResponse of ['not base64 at all!!', base64Of('no xml here'), '%%%']) {
      const browser = new Browser();
      const request = await leave(browser);
      const back = await postBack(browser, request, SAMLResponse);
      expect(back.status, back.body).to.equal(401);
    }
  });

  it('the page posting an answer again escapes what was posted and comes with a Content-Security-Policy without inline scripts but its own', async () => {
    const hostile = '"><script>alert(1)</script>';
    const page = await new Browser().post(`${base}/delegation/callback/${encodeURIComponent('x"><script>alert(2)</script>')}`, { SAMLResponse: hostile, RelayState: hostile });
    expect(page.status).to.equal(200);
    expect(page.body).to.not.include('<script>alert');
    expect(formOf(page.body).hidden).to.deep.equal({ SAMLResponse: hostile, RelayState: hostile, delegationPostedAgain: 'true' });
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).to.match(/script-src 'sha256-[^']+'/);
    expect(policy).to.not.include('unsafe-inline');
  });

  it('names tessera in its SP metadata from server.publicUrl, whatever X-Forwarded-Host and -Proto say (trustProxy on)', async () => {
    const metadata = await new Browser({ 'x-forwarded-host': 'evil.example.net', 'x-forwarded-proto': 'https' }).get(`${base}/delegation/saml2/${PROVIDER}/metadata`);
    expect(metadata.status).to.equal(200);
    expect(metadata.body).to.include(`entityID="${spEntityId}"`);
    expect(metadata.body).to.include(`Location="${callback}"`);
    expect(metadata.body).to.not.include('evil.example.net');
  });

  it('sends a browser back from an upstream logout with a forged, replayed or missing state to /logout alone (no service followed)', async () => {
    for (const query of ['?state=forged-state', `?state=${'x'.repeat(2000)}`, '']) {
      const back = await new Browser().get(`${base}/delegation/logout${query}`);
      expect(back.status, back.body).to.equal(302);
      expect(back.location).to.equal(`${base}/logout`);
    }
  });
});
