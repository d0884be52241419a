import { connect } from 'node:net';
import { expect } from 'chai';
import { Browser } from '../../support/browser.js';
import { rememberRawRequest } from '../../support/log-canary.js';
import type { Tessera } from '../../support/tessera.js';
import { CLIENT_ID, CLIENT_SECRET, OAUTH_APP, REDIRECT_URI, startOidc } from './support.js';

const BASIC = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const AUTH = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }).toString();

/** A request as fetch sends it: method, path under the base path, headers, body. */
type Sent = readonly [method: string, path: string, headers?: Record<string, string>, body?: string];

/** Requests the provider's endpoints (and the module's own routes around them) get from careless or hostile clients. */
const REQUESTS: readonly Sent[] = [
  ['GET', '/oidc/nowhere'],
  ['GET', '/oidc/'],
  ['GET', '/oidc/auth'],
  ['GET', '/oidc/auth?client_id=%E0%A4%A'],
  ['GET', '/oidc/auth?client_id=%ZZ&redirect_uri=%'],
  ['GET', `/oidc/auth?${AUTH}&client_id=${CLIENT_ID}`],
  ['GET', `/oidc/auth?${AUTH}&claims=%7Bnot-json`],
  ['GET', `/oidc/auth?${AUTH}&claims=%5B1%2C2%5D`],
  ['GET', `/oidc/auth?${AUTH}&request=eyJhbGciOiJub25lIn0.e30.`],
  ['GET', `/oidc/auth?${AUTH}&request_uri=https%3A%2F%2Fevil.example%2Fr`],
  ['GET', `/oidc/auth?${AUTH}&max_age=-1&prompt=bogus&response_mode=nope&acr_values=%00`],
  ['GET', `/oidc/auth?${AUTH}&id_token_hint=a.b.c`],
  ['GET', `/oidc/auth?${AUTH.replace('response_type=code', 'response_type=code%20code')}`],
  ['GET', '/oidc/auth/unknown-interaction'],
  ['GET', '/oidc/auth/%ZZ'],
  ['POST', '/oidc/auth', FORM, AUTH],
  ['GET', '/oidc/token'],
  ['POST', '/oidc/token', { 'content-type': 'application/json' }, '{"grant_type":'],
  ['POST', '/oidc/token', { 'content-type': 'text/xml' }, '<a/>'],
  ['POST', '/oidc/token', { ...FORM, authorization: BASIC }, 'grant_type=unknown'],
  ['POST', '/oidc/token', { ...FORM, authorization: 'Basic %%%' }, 'grant_type=authorization_code&code=x'],
  ['POST', '/oidc/token', { ...FORM, authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` }, 'grant_type=authorization_code&code=x'],
  ['POST', '/oidc/token', { ...FORM, authorization: BASIC }, 'grant_type=authorization_code&code=x&code=y'],
  ['POST', '/oidc/token', { ...FORM, authorization: BASIC }, `grant_type=refresh_token&refresh_token=${'r'.repeat(70_000)}`],
  ['POST', '/oidc/token', FORM, 'client_id=rp&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=not.a.jwt&grant_type=authorization_code&code=x'],
  ['GET', '/oidc/me', { authorization: 'Bearer' }],
  ['GET', '/oidc/me', { authorization: 'Bearer not-a-token' }],
  ['POST', '/oidc/me', { ...FORM, authorization: 'Bearer x' }, 'access_token=y'],
  ['POST', '/oidc/token/introspection', FORM, 'token=x'],
  ['POST', '/oidc/token/introspection', { ...FORM, authorization: BASIC }, `token=${'t'.repeat(5000)}&token_type_hint=nonsense`],
  ['POST', '/oidc/token/revocation', { ...FORM, authorization: BASIC }, 'token='],
  ['POST', '/oidc/request', FORM, AUTH],
  ['POST', '/oidc/request', { ...FORM, authorization: BASIC }, `${AUTH}&request_uri=urn:x`],
  ['GET', '/oidc/session/end?id_token_hint=garbage'],
  ['GET', '/oidc/session/end?id_token_hint=eyJhbGciOiJub25lIn0.eyJhdWQiOiJycCJ9.'],
  ['GET', '/oidc/session/end?client_id=nobody&post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F'],
  ['POST', '/oidc/session/end/confirm', FORM, ''],
  ['POST', '/oidc/session/end/confirm', FORM, 'xsrf=forged&logout=yes'],
  ['GET', '/oidc/session/end/success?client_id=nobody'],
  ['OPTIONS', '/oidc/token', { origin: 'https://evil.example', 'access-control-request-method': 'POST' }],
  ['DELETE', '/oidc/jwks'],
  ['GET', '/oidc/jwks', { accept: 'application/xml' }],
  ['PUT', '/oidc/.well-known/openid-configuration'],
  ['GET', '/oidc/interaction/unknown'],
  ['GET', '/oidc/interaction/..%2F..%2Fetc'],
  ['GET', '/oidc/interaction/unknown/login?ticket=ST-1-garbage'],
  ['POST', '/oidc/interaction/unknown/consent', FORM, 'decision=maybe'],
  ['GET', '/oidc/auth?client_id=rp', { cookie: 'OIDC_SESSION=garbage; OIDC_SESSION.sig=garbage; OIDC_INTERACTION=x; OIDC_RESUME=%' }],
  ['GET', `/oauth2.0/authorize?client_id=${OAUTH_APP.clientId}&scope=%00&response_type=code`],
  ['POST', '/oauth2.0/accessToken', { 'content-type': 'application/json' }, '[]'],
  ['GET', '/oauth2.0/profile', { authorization: 'Bearer x'.repeat(100) }],
  ['GET', '/oauth2.0/nowhere'],
];

/** Bytes as given, for what fetch will not send (a body shorter than its Content-Length, a chunked body cut off). */
function raw(port: number, text: string): Promise<number> {
  rememberRawRequest(text);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)));
  });
}

// Unknown or malformed requests to the provider get a 4xx (or a page, or a redirect with an OAuth error),
// never a 500, and nothing about them is logged as a server error or with a stack.
describe('oidc: unknown or malformed requests', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startOidc();
  });
  after(() => tessera.close());

  it('never a 5xx, never a server error or a stack in the log', async () => {
    const browser = new Browser();
    for (const [method, path, headers = {}, body] of REQUESTS) {
      const answer = method === 'GET' ? await browser.get(`${tessera.url}${path}`) : await fetch(`${tessera.url}${path}`, { method, headers, ...(body !== undefined && { body }), redirect: 'manual' });
      if (method === 'GET' && Object.keys(headers).length > 0) {
        const again = await fetch(`${tessera.url}${path}`, { headers, redirect: 'manual' });
        expect(again.status, `${method} ${path} ${JSON.stringify(headers)}`).to.be.within(200, 499);
      }
      expect(answer.status, `${method} ${path.slice(0, 120)}`).to.be.within(200, 499);
    }
    const port = Number(new URL(tessera.url).port);
    const cut = [
      `POST /cas/oidc/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\nConnection: close\r\n\r\ngrant_type=x`,
      `POST /cas/oidc/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\ngrant`,
      `GET http://evil.example/cas/oidc/auth?client_id=rp HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
      `GET /cas/oidc/auth?${'x'.repeat(5000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    ];
    for (const request of cut) {
      const status = await raw(port, request);
      expect(status === 0 || (status >= 200 && status < 500), `${request.slice(0, 60)} → ${status}`).to.equal(true);
    }
    const bad = tessera.logs.filter((line) => {
      const entry = JSON.parse(line) as { level?: number; msg?: string; event?: string };
      return (entry.level ?? 0) >= 50 || line.includes('server.error') || /\bat [^ ]+ \(|"stack"/.test(line);
    });
    expect(bad).to.deep.equal([]);
  });
});
