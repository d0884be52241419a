import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import * as client from 'openid-client';
import { Browser, headingOf, type Visit } from '../../support/browser.js';
import type { StartOptions } from '@tessera/cli-server';
import { baseConfig, startTessera, type Tessera } from '../../support/tessera.js';

export const REDIRECT_URI = 'https://rp.example.org/callback';
export const CLIENT_ID = 'rp';
export const CLIENT_SECRET = 'rp-secret-of-at-least-16';

/** A confidential client releasing every attribute, without a consent page, its refresh tokens rotated on use. */
export const RP_SERVICE = {
  '@class': 'org.apereo.cas.services.OidcRegisteredService',
  id: 10,
  name: 'Relying party',
  serviceId: '^https://rp\\.example\\.org/callback$',
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  scopes: ['java.util.HashSet', ['openid', 'profile', 'email', 'offline_access']],
  bypassApprovalPrompt: true,
  generateRefreshToken: true,
  renewRefreshToken: true,
  attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
};

export const OAUTH_SECRET = 'oauth-secret-of-at-least-16';

/** An Apereo OAuth 2.0 client as the corpus writes them: refresh tokens, not renewed; two attributes released. */
export const OAUTH_APP = {
  '@class': 'org.apereo.cas.support.oauth.services.OAuthRegisteredService',
  id: 20,
  name: 'OAuth app',
  serviceId: '^https://app\\.example\\.org/oauth/.*',
  clientId: 'oauth-app',
  clientSecret: OAUTH_SECRET,
  bypassApprovalPrompt: true,
  generateRefreshToken: true,
  attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', ['email', 'name']] },
};

/** A port free now, so the issuer (server.publicUrl) can name it before the server starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** tessera with the login and oidc modules, their keys in files of their own. */
export async function startOidc(overrides: Record<string, unknown> = {}, options: Pick<StartOptions, 'mongoDatabase' | 'clock'> = {}): Promise<Tessera> {
  const port = await freePort();
  const folder = mkdtempSync(join(tmpdir(), 'tessera-oidc-'));
  const users = [
    { username: 'casuser', password: 'Mellon', attributes: { email: ['casuser@example.org'], name: ['CAS User'], memberOf: ['staff'] } },
    { username: 'alice', password: 'secret', attributes: { memberOf: ['students'] } },
  ];
  return startTessera({
    server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://127.0.0.1:${port}` },
    modules: ['rest', 'login', 'oidc'],
    users,
    services: [...(baseConfig()['services'] as unknown[]), RP_SERVICE],
    login: { keyFile: join(folder, 'login-key.json') },
    ...overrides,
    oidc: { keyFile: join(folder, 'oidc-keys.json'), ...(overrides['oidc'] as Record<string, unknown> | undefined) },
  }, options);
}

/**
 * Follows the browser's redirects until one leaves tessera (the client's redirect URI) or a page answers.
 * With `publicBase` (server.publicUrl + basePath, where the server is not really reached), a redirect
 * there goes to `base` instead.
 */
export async function follow(browser: Browser, visit: Visit, base: string, publicBase = base): Promise<Visit> {
  let current = visit;
  for (let hops = 0; hops < 10 && current.location !== null && current.status >= 300 && current.status < 400; hops++) {
    const next = new URL(current.location, current.url).href;
    if (next.startsWith(publicBase)) current = await browser.get(`${base}${next.slice(publicBase.length)}`);
    else if (next.startsWith(base)) current = await browser.get(next);
    else return current;
  }
  return current;
}

/**
 * Code + PKCE for `config`'s client in a fresh browser, through tessera's /login form at `base`: the
 * redirect back to `redirectUri` with its code, and the verifier that redeems it.
 */
export async function authorizeThroughLoginForm(config: client.Configuration, base: string, redirectUri: string, scope: string): Promise<{ callback: URL; verifier: string }> {
  const browser = new Browser();
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
  let visit = await follow(browser, await browser.get(url.href), base);
  if (headingOf(visit.body) === 'Log in') visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), base);
  expect(visit.location, visit.body).to.match(new RegExp(`^${redirectUri}\\?code=`));
  return { callback: new URL(visit.location!), verifier };
}

/** A form posted to the provider's token endpoint at `base` (or another endpoint, `path`) as the RP client, with its secret. */
export function tokenRequest(base: string, fields: Record<string, string>, path = '/oidc/token'): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}` },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * The token endpoint's answers to one code or refresh token redeemed by two requests at once: exactly
 * one gets tokens, the other is refused as a replayed one is (`invalid_grant`), and the grant is revoked
 * so the winner's tokens are refused at every node of `bases` (userinfo 401, introspection inactive,
 * its refresh token refused).
 */
export async function expectOneRedemptionThenRevoked(answers: readonly Response[], ...bases: string[]): Promise<void> {
  const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as Record<string, string>[];
  // Named by their error, never by the tokens they hold.
  expect(answers.map((answer) => answer.status).sort(), `answered ${bodies.map((body) => body['error'] ?? 'tokens').join(', ')}`).to.deep.equal([200, 400]);
  const winner = bodies[answers.findIndex((answer) => answer.status === 200)]!;
  const loser = bodies[answers.findIndex((answer) => answer.status === 400)]!;
  expect(loser).to.deep.equal({ error: 'invalid_grant', error_description: 'grant request is invalid' });
  expect(winner['access_token']).to.be.a('string');
  for (const base of bases) {
    expect((await fetch(`${base}/oidc/me`, { headers: { authorization: `Bearer ${winner['access_token']}` } })).status).to.equal(401);
    expect(await (await tokenRequest(base, { token: winner['access_token']! }, '/oidc/token/introspection')).json()).to.deep.equal({ active: false });
    if (winner['refresh_token'] !== undefined) {
      expect(await (await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: winner['refresh_token'] })).json()).to.deep.include({ error: 'invalid_grant' });
    }
  }
}

/** A local receiver of back-channel logout requests: every logout_token posted to it. */
export async function logoutReceiver(): Promise<{ server: Server; url: string; tokens: string[] }> {
  const tokens: string[] = [];
  const server = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const token = new URLSearchParams(body).get('logout_token');
      if (token !== null) tokens.push(token);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel`, tokens };
}
