import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'chai';
import * as client from 'openid-client';
import { FakeDatabase } from '@tessera/testkit/mongo';
import type { StartOptions } from '@tessera/cli-server';
import { Browser, headingOf } from '../../support/browser.js';
import type { Tessera } from '../../support/tessera.js';
import { CLIENT_ID, CLIENT_SECRET, follow, REDIRECT_URI, startOidc } from './support.js';

/** A GET of `target` as written, which fetch would normalise (a backslash, a fragment). */
function rawGet(port: string, target: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path: target }, (incoming) => {
      incoming.resume();
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0 }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

// docs/modules/oidc.md: bad input to the provider gets the right OAuth error, and nothing is stored.
describe('oidc: bad input', () => {
  let tessera: Tessera;
  let database: FakeDatabase;
  let issuer: string;
  let config: client.Configuration;
  before(async () => {
    database = new FakeDatabase();
    tessera = await startOidc({ storage: { type: 'mongo', mongo: { uri: 'mongodb://fake.invalid' } } }, { mongoDatabase: database as unknown as NonNullable<StartOptions['mongoDatabase']> });
    issuer = `${tessera.url}/oidc`;
    config = await client.discovery(new URL(issuer), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), { execute: [client.allowInsecureRequests] });
  });
  after(() => tessera.close());

  const records = async () => (await database.collection('records').find({}).toArray()).map((record) => String(record['_id'])).sort();

  /** A browser logged in through the form; the code for the client and its PKCE verifier. */
  async function code(): Promise<{ callback: URL; verifier: string }> {
    const browser = new Browser();
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    let visit = await follow(browser, await browser.get(url.href), tessera.url);
    if (headingOf(visit.body) === 'Log in') visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), tessera.url);
    return { callback: new URL(visit.location!), verifier };
  }

  const token = (fields: Record<string, string>, secret = CLIENT_SECRET) =>
    fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${secret}`).toString('base64')}` },
      body: new URLSearchParams(fields).toString(),
    });

  const authorizeUrl = (params: Record<string, string>) =>
    `${issuer}/auth?${new URLSearchParams({ response_type: 'code', scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', ...params }).toString()}`;

  it('an unknown client: an error page, no redirect, nothing stored', async () => {
    const before = await records();
    const answer = await new Browser().get(authorizeUrl({ client_id: 'nobody', redirect_uri: REDIRECT_URI }));
    expect(answer.status).to.equal(400);
    expect(answer.location).to.equal(null);
    expect(answer.body).to.include('invalid_client');
    expect(await records()).to.deep.equal(before);
  });

  it('a redirect URI outside the client\'s pattern: an error page, no redirect, nothing stored', async () => {
    const before = await records();
    for (const redirect of ['https://evil.example.org/callback', `${REDIRECT_URI}/more`, `${REDIRECT_URI}#fragment`, 'https://rp.example.org/callback.evil.org']) {
      const answer = await new Browser().get(authorizeUrl({ client_id: CLIENT_ID, redirect_uri: redirect }));
      expect(answer.status, redirect).to.equal(400);
      expect(answer.location, redirect).to.equal(null);
      expect(answer.body, redirect).to.include('redirect_uri');
    }
    expect(await records()).to.deep.equal(before);
  });

  it('a wrong client secret: 401 invalid_client, the code still good for the client', async () => {
    const { callback, verifier } = await code();
    const wrong = await token({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier }, 'not-the-secret-of-rp');
    expect(wrong.status).to.equal(401);
    expect(await wrong.json()).to.deep.include({ error: 'invalid_client' });
    const right = await token({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(right.status).to.equal(200);
  });

  it('a PKCE mismatch: invalid_grant, no token', async () => {
    const { callback } = await code();
    const answer = await token({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: client.randomPKCECodeVerifier() });
    expect(answer.status).to.equal(400);
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).to.deep.include({ error: 'invalid_grant' });
    expect(body).to.not.have.property('access_token');
  });

  it('a code used twice: invalid_grant, and the tokens of its first use are revoked', async () => {
    const { callback, verifier } = await code();
    const fields = { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    const first = (await (await token(fields)).json()) as { access_token: string; refresh_token: string };
    expect((await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${first.access_token}` } })).status).to.equal(200);

    const again = await token(fields);
    expect(again.status).to.equal(400);
    expect(await again.json()).to.deep.include({ error: 'invalid_grant' });
    expect((await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${first.access_token}` } })).status).to.equal(401);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(await refreshed.json()).to.deep.include({ error: 'invalid_grant' });
  });

  it('oversized parameters: refused with 413, an OAuth error or the listener\'s 431, nothing stored', async () => {
    const before = await records();
    const long = 'a'.repeat(5000);
    const authorize = await new Browser().get(authorizeUrl({ client_id: long, redirect_uri: REDIRECT_URI }));
    expect(authorize.status).to.equal(413);
    expect(authorize.body).to.include('invalid_request');
    expect(authorize.location).to.equal(null);
    const huge = await fetch(authorizeUrl({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, state: 'x'.repeat(20_000) }), { redirect: 'manual' });
    expect(huge.status).to.equal(431);
    const body = await token({ grant_type: 'authorization_code', code: 'c'.repeat(200_000), redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43) });
    expect(body.status).to.be.oneOf([400, 413]);
    expect(await records()).to.deep.equal(before);
  });

  it('a client that resets the connection mid-body: nothing on stderr (outside the log), and the server answers the next request', async () => {
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    });
    try {
      const { hostname, port } = new URL(tessera.url);
      const socket = connect(Number(port), hostname);
      await once(socket, 'connect');
      socket.write(`POST ${new URL(issuer).pathname}/token HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ngrant_type=authorization_code&code=`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.stderr.write = write;
    }
    expect(written.join('')).to.equal('');
    expect((await token({ grant_type: 'authorization_code', code: 'never-issued-after-reset', redirect_uri: REDIRECT_URI })).status).to.equal(400);
  });

  it('the authorization endpoint by every spelling the provider routes (a trailing slash, another case): the same 413, nothing stored', async () => {
    const before = await records();
    const query = new URL(authorizeUrl({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, state: 's'.repeat(5000) })).search;
    for (const path of ['/oidc/auth/', '/oidc/AUTH', '/oidc/Auth/', '/oauth2.0/authorize']) {
      const answer = await new Browser().get(`${tessera.url}${path}${query}`);
      expect(answer.status, path).to.equal(413);
      expect(answer.location, path).to.equal(null);
    }
    // Targets a URL parser reads otherwise than their text says: `/auth\?query#` is `/auth/` with that query.
    const { pathname } = new URL(tessera.url);
    for (const target of [`${pathname}/oidc/auth\\${query}#`, `${pathname}/oidc/auth\\${query}#x`, `${pathname}/oidc/AUTH\\${query}#`]) {
      const answer = await rawGet(new URL(tessera.url).port, target);
      expect(answer.status, target).to.equal(413);
    }
    expect(await records()).to.deep.equal(before);
  });
});
