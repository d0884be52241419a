import { expect } from 'chai';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@tessera/core';
import { CasJwtCodec, type TokenKeyPair } from '@tessera/core/modules/tokens';
import { overHttp, type Answer } from '../../support/https.js';
import { APP, serviceTicket, startTessera, type Tessera } from '../../support/tessera.js';

const LOGIN = 'username=casuser&password=Mellon';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function login(tessera: Tessera, headers: Record<string, string>, body = LOGIN): Promise<Answer> {
  return overHttp(`${tessera.url}/v1/tickets`, { method: 'POST', headers: { ...FORM, ...headers }, body });
}

function samlValidate(tessera: Tessera, ticket: string, headers: Record<string, string>): Promise<Answer> {
  const envelope =
    '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>' +
    '<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_1" IssueInstant="2026-11-22T00:00:00Z">' +
    `<samlp:AssertionArtifact>${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`;
  return overHttp(`${tessera.url}/samlValidate?TARGET=${encodeURIComponent(APP)}`, { method: 'POST', headers: { 'content-type': 'text/xml', ...headers }, body: envelope });
}

function keyFileIn(): string {
  return join(mkdtempSync(join(tmpdir(), 'tessera-e2e-keys-')), 'token-keys.json');
}

function codecFrom(keyFile: string): CasJwtCodec {
  return new CasJwtCodec({ ...(JSON.parse(readFileSync(keyFile, 'utf8')) as TokenKeyPair), encryptionAlgorithm: 'A128CBC-HS256' }, systemClock);
}

const port = (tessera: Tessera) => new URL(tessera.url).port;

// The request's Host header is the client's to choose: it must never decide where a Location points or who issued a token.
describe('absolute URLs with server.publicUrl: the Host header never reaches a response or token', () => {
  let tessera: Tessera;
  let keyFile: string;
  const hostile = { host: 'evil.example.net', 'x-forwarded-host': 'evil.example.net', 'x-forwarded-proto': 'http' };
  before(async () => {
    keyFile = keyFileIn();
    tessera = await startTessera({ modules: ['rest', 'tokens'], tokens: { keyFile }, server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', trustProxy: true, publicUrl: 'https://cas.example.org' } });
  });
  after(() => tessera.close());

  it('builds Location, the HTML form, the JWT iss and aud, the SAML Issuer and the OpenAPI server from publicUrl and the base path', async () => {
    const html = await login(tessera, hostile);
    expect(html.status).to.equal(201);
    expect(html.headers['location']).to.match(/^https:\/\/cas\.example\.org\/cas\/v1\/tickets\/TGT-[^/]+$/);
    expect(html.body).to.include(`action="${String(html.headers['location'])}"`);

    const jwt = await login(tessera, hostile, `${LOGIN}&token=true`);
    const claims = await codecFrom(keyFile).decode(jwt.body);
    expect(claims).to.include({ iss: 'https://cas.example.org/cas', aud: 'https://cas.example.org/cas' });

    const tgt = String(html.headers['location']).split('/').pop() ?? '';
    const saml = await samlValidate(tessera, await serviceTicket(tessera.url, tgt), hostile);
    expect(saml.status).to.equal(200);
    expect(saml.body).to.include('Issuer="cas.example.org"');

    const openapi = await overHttp(`${tessera.url}/openapi.json`, { headers: hostile });
    expect((JSON.parse(openapi.body) as { servers: unknown }).servers).to.deep.equal([{ url: 'https://cas.example.org/cas' }]);

    for (const answer of [html, jwt, saml, openapi]) expect(JSON.stringify(answer)).to.not.include('evil');
  });
});

describe('absolute URLs without server.publicUrl: only server.allowedHosts are answered', () => {
  it('by default the loopback names on any port, so a local server and the README walkthrough keep working', async () => {
    const tessera = await startTessera();
    try {
      for (const host of [`127.0.0.1:${port(tessera)}`, `localhost:${port(tessera)}`, 'LOCALHOST', '[::1]:8080']) {
        const answer = await login(tessera, { host, accept: 'text/plain' });
        expect(answer.status, host).to.equal(201);
        expect(answer.headers['location'], host).to.equal(`http://${host.toLowerCase()}/cas/v1/tickets/${answer.body}`);
      }
    } finally {
      await tessera.close();
    }
  });

  it('any other host gets 400 with a clear body, before credentials are checked; so does a forwarded host with trustProxy', async () => {
    const tessera = await startTessera({ server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', trustProxy: true, allowedHosts: ['cas.example.org', 'internal:8080'] } });
    try {
      const refused = await login(tessera, { host: 'evil.example.net' }, 'username=casuser&password=wrong');
      expect(refused.status).to.equal(400);
      expect(refused.headers['content-type']).to.match(/^text\/plain/);
      expect(refused.body).to.equal("The host 'evil.example.net' is not served here: it is not in server.allowedHosts, and server.publicUrl is not set.");
      expect(refused.headers['location']).to.equal(undefined);
      expect((await login(tessera, { host: 'internal:8081' })).status).to.equal(400);

      const forwarded = await login(tessera, { host: 'internal:8080', 'x-forwarded-host': 'evil.example.net' });
      expect(forwarded.status).to.equal(400);
      const proxied = await login(tessera, { host: 'internal:8080', 'x-forwarded-host': 'cas.example.org', 'x-forwarded-proto': 'https', accept: 'text/plain' });
      expect(proxied.status).to.equal(201);
      expect(proxied.headers['location']).to.equal(`https://cas.example.org/cas/v1/tickets/${proxied.body}`);
      const badScheme = await login(tessera, { host: 'internal:8080', 'x-forwarded-host': 'cas.example.org', 'x-forwarded-proto': 'javascript' });
      expect(badScheme.status).to.equal(400);

      const validation = await overHttp(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=ST-1-x-e2e`, { headers: { host: 'evil.example.net' } });
      expect(validation.status).to.equal(400);
      expect(validation.body).to.not.include('<cas:');
    } finally {
      await tessera.close();
    }
  });

  it('the JWT iss and aud are the allowed host the request came by, or tokens.issuer', async () => {
    const keyFile = keyFileIn();
    const tessera = await startTessera({ modules: ['rest', 'tokens'], tokens: { keyFile } });
    const fixed = await startTessera({ modules: ['rest', 'tokens'], tokens: { keyFile, issuer: 'https://sso.example.org/cas' } });
    try {
      const claims = await codecFrom(keyFile).decode((await login(tessera, { host: `localhost:${port(tessera)}` }, `${LOGIN}&token=true`)).body);
      expect(claims).to.include({ iss: `http://localhost:${port(tessera)}/cas`, aud: `http://localhost:${port(tessera)}/cas` });
      expect((await login(tessera, { host: 'evil.example.net' }, `${LOGIN}&token=true`)).status).to.equal(400);
      const configured = await codecFrom(keyFile).decode((await login(fixed, {}, `${LOGIN}&token=true`)).body);
      expect(configured).to.include({ iss: 'https://sso.example.org/cas', aud: 'https://sso.example.org/cas' });
    } finally {
      await tessera.close();
      await fixed.close();
    }
  });
});
