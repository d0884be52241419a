import { expect } from 'chai';
import { exportJWK, generateKeyPair } from 'jose';
import * as client from 'openid-client';
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { baseConfig, type Tessera } from '../../support/tessera.js';
import { authorizeThroughLoginForm, CLIENT_ID, CLIENT_SECRET, freePort, OAUTH_APP, OAUTH_SECRET, RP_SERVICE, startOidc } from '../oidc/support.js';

const SETTINGS = { failure: { threshold: 3, rangeSeconds: 60, lockSeconds: 30, maxLockSeconds: 120 } };
const LOCKED = { error: 'invalid_client', error_description: 'Too many failed attempts. Try again later.' };
const GUESSES = ['guess-one-of-rp', 'guess-two-of-rp', 'guess-three-of-rp'];

function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

// docs/protocol.md §5.5 — failed client authentications at the token endpoints, locked per address and
// client_id as failed logins are; the throttle module with the oidc module over real HTTP, its clock moved.
describe('throttle module: client authentication at the OAuth token endpoints (docs/protocol.md §5.5)', () => {
  let tessera: Tessera;
  let clock: FixedClock;
  let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let address = 0;
  /** A client address of its own for each test (behind the trusted proxy): no test inherits another's counts. */
  let from: string;

  before(async () => {
    clock = new FixedClock();
    const pair = await generateKeyPair('RS256', { extractable: true });
    signingKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'jwt-key-1', alg: 'RS256', use: 'sig' };
    const { clientSecret: _none, ...withoutSecret } = RP_SERVICE;
    const signing = { ...withoutSecret, id: 13, name: 'Signing client', serviceId: '^https://jwt\\.example\\.org/callback$', clientId: 'jwt', tokenEndpointAuthenticationMethod: 'private_key_jwt', jwks: JSON.stringify({ keys: [publicJwk] }) };
    const publicClient = { ...withoutSecret, id: 14, name: 'Public client', serviceId: '^https://spa\\.example\\.org/callback$', clientId: 'spa' };
    const port = await freePort();
    tessera = await startOidc(
      {
        server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://127.0.0.1:${port}`, trustProxy: true },
        modules: ['rest', 'login', 'oidc', 'throttle'],
        services: [...(baseConfig()['services'] as unknown[]), RP_SERVICE, OAUTH_APP, signing, publicClient],
        throttle: SETTINGS,
      },
      { clock },
    );
  });
  after(() => tessera.close());
  beforeEach(() => {
    from = `198.51.100.${++address}`;
  });

  /** A token request from `address` (X-Forwarded-For) with HTTP Basic client credentials; `path` under the base. */
  function tokenRequest(secret: string, parameters: Record<string, string>, options: { clientId?: string; address?: string; path?: string } = {}): Promise<Response> {
    return fetch(`${tessera.url}${options.path ?? '/oidc/token'}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: basic(options.clientId ?? CLIENT_ID, secret),
        'x-forwarded-for': options.address ?? from,
      },
      body: new URLSearchParams(parameters).toString(),
    });
  }

  const UNKNOWN_CODE = { grant_type: 'authorization_code', code: 'no-such-code-of-this-test', redirect_uri: 'https://rp.example.org/callback' };

  async function lockOut(): Promise<void> {
    const statuses = [];
    for (const guess of GUESSES) statuses.push((await tokenRequest(guess, UNKNOWN_CODE)).status);
    expect(statuses).to.deep.equal([401, 401, 401]);
  }

  it('locks after threshold wrong secrets: even the right secret then gets 429, Retry-After and invalid_client, and no tokens', async () => {
    await lockOut();
    const locked = await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE);
    expect(locked.status).to.equal(429);
    expect(locked.headers.get('retry-after')).to.equal('30');
    expect(locked.headers.get('www-authenticate')).to.equal(null);
    expect(await locked.json()).to.deep.equal(LOCKED);
    const wrong = await tokenRequest('guess-four-of-rp', UNKNOWN_CODE);
    expect([wrong.status, wrong.headers.get('retry-after')]).to.deep.equal([429, '30']);
    expect(await wrong.json()).to.deep.equal(LOCKED);
  });

  it('of many wrong secrets sent at once after a failure, `threshold` minus it are compared: the rest get 429 uncompared, and one lock is logged', async () => {
    expect((await tokenRequest('guess-first-of-rp', UNKNOWN_CODE)).status).to.equal(401);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => tokenRequest(`guess-${i}-of-rp-at-once`, UNKNOWN_CODE)));
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([...Array<number>(2).fill(401), ...Array<number>(18).fill(429)]);
    const lockLines = tessera.logs.filter((line) => line.includes('"client.throttled"') && line.includes(`client ${from} ${CLIENT_ID}`));
    expect(lockLines).to.have.length(1);
    expect((await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE)).status, 'locked').to.equal(429);
  });

  it('50 token requests of one confidential client with its secret sent at once from one address all get tokens', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => tokenRequest(CLIENT_SECRET, { grant_type: 'client_credentials' })));
    const bodies = await Promise.all(answers.map(async (answer) => `${answer.status} ${'access_token' in ((await answer.json()) as object) ? 'token' : 'none'}`));
    expect(bodies).to.deep.equal(Array<string>(50).fill('200 token'));
  });

  it('a public client (nothing to compare) is never refused for the token requests it makes: each attempt is given back', async () => {
    const statuses = [];
    for (let i = 0; i < 8; i++) {
      const answer = await fetch(`${tessera.url}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'x-forwarded-for': from },
        body: new URLSearchParams({ ...UNKNOWN_CODE, redirect_uri: 'https://spa.example.org/callback', client_id: 'spa', code_verifier: 'v'.repeat(43) }).toString(),
      });
      statuses.push(`${answer.status} ${((await answer.json()) as { error: string }).error}`);
    }
    expect(new Set(statuses)).to.deep.equal(new Set(['400 invalid_grant']));
  });

  it('locks the other endpoints that authenticate the client too: introspection, revocation and Apereo accessToken', async () => {
    await lockOut();
    for (const path of ['/oidc/token/introspection', '/oidc/token/revocation']) {
      const locked = await tokenRequest(CLIENT_SECRET, { token: 'no-such-token-of-this-test' }, { path });
      expect([path, locked.status, locked.headers.get('retry-after')]).to.deep.equal([path, 429, '30']);
      expect(await locked.json()).to.deep.equal(LOCKED);
    }
    const apereo = await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE, { path: '/oauth2.0/accessToken' });
    expect([apereo.status, apereo.headers.get('retry-after')]).to.deep.equal([429, '30']);
  });

  it('counts wrong secrets at introspection toward the same lock', async () => {
    for (const guess of GUESSES) expect((await tokenRequest(guess, { token: 'no-such-token-of-this-test' }, { path: '/oidc/token/introspection' })).status).to.equal(401);
    expect((await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE)).status).to.equal(429);
  });

  it('keeps another client_id from the same address, and the same client from another address, open', async () => {
    await lockOut();
    // Authenticated, so the unknown code is what is refused: invalid_grant, not the lock.
    const otherAddress = await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE, { address: '203.0.113.50' });
    expect([otherAddress.status, ((await otherAddress.json()) as { error: string }).error]).to.deep.equal([400, 'invalid_grant']);
    const otherClient = await tokenRequest(OAUTH_SECRET, UNKNOWN_CODE, { clientId: OAUTH_APP.clientId });
    expect([otherClient.status, ((await otherClient.json()) as { error: string }).error]).to.deep.equal([400, 'invalid_grant']);
    expect((await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE)).status).to.equal(429);
  });

  it('ids no client has count together per address: made-up ids lock made-up ids there, never a registered client or another address', async () => {
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await tokenRequest('any-secret', UNKNOWN_CODE, { clientId: `made-up-${from}-${i}` })).status);
    expect(statuses.slice(0, 3)).to.deep.equal([401, 401, 401]);
    expect(new Set(statuses.slice(3))).to.deep.equal(new Set([429]));
    const registered = await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE);
    expect([registered.status, ((await registered.json()) as { error: string }).error], 'a registered client from that address').to.deep.equal([400, 'invalid_grant']);
    const elsewhere = await tokenRequest('any-secret', UNKNOWN_CODE, { clientId: `made-up-${from}-0`, address: '203.0.113.77' });
    expect(elsewhere.status, 'a made-up id from another address').to.equal(401);
    const lockLines = tessera.logs.filter((line) => line.includes('"event":"client.throttled"') && line.includes(`unknown-client ${from}`));
    expect(lockLines).to.have.length(1);
    expect(lockLines[0]).to.not.include('"client":');
  });

  it('a code exchanged during the lock is not consumed: after the lock (the clock moved) the right secret redeems it, and the success forgets the key', async () => {
    const config = await client.discovery(new URL(`${tessera.url}/oidc`), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: (url, init) => fetch(url, { ...(init as RequestInit), headers: { ...init.headers, 'x-forwarded-for': from } }),
    });
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, 'https://rp.example.org/callback', 'openid email');
    const code = callback.searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: 'https://rp.example.org/callback', code_verifier: verifier };
    await lockOut();
    const locked = await tokenRequest(CLIENT_SECRET, exchange);
    expect(locked.status).to.equal(429);
    expect(await locked.json()).to.not.have.property('access_token');
    // As openid-client reports it to the application: an OAuth error, with the status.
    const refused = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier }).then(
      () => 'tokens',
      (error: unknown) => ({ error: (error as { error?: string }).error, status: (error as { status?: number }).status }),
    );
    expect(refused).to.deep.equal({ error: 'invalid_client', status: 429 });

    clock.advanceSeconds(31);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    expect(tokens.claims()?.sub).to.equal('casuser');

    // Forgotten: the next lock is the first one again (30 seconds), not the doubled second (60).
    await lockOut();
    expect((await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE)).headers.get('retry-after')).to.equal('30');
  });

  it('private_key_jwt: assertions that do not verify count; once the lock ends, one that verifies forgets the key', async () => {
    const options = {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: (url: string, init: client.CustomFetchOptions) => fetch(url, { ...(init as RequestInit), headers: { ...init.headers, 'x-forwarded-for': from } }),
    };
    const signed = await client.discovery(new URL(`${tessera.url}/oidc`), 'jwt', undefined, client.PrivateKeyJwt({ key: signingKey, kid: 'jwt-key-1' }), options);
    const stranger = (await generateKeyPair('RS256')).privateKey;
    const forged = await client.discovery(new URL(`${tessera.url}/oidc`), 'jwt', undefined, client.PrivateKeyJwt({ key: stranger, kid: 'jwt-key-1' }), options);
    const grant = (config: client.Configuration) =>
      client.genericGrantRequest(config, 'authorization_code', { code: 'no-such-code-of-this-test', redirect_uri: 'https://jwt.example.org/callback' }).then(
        () => 'tokens',
        (error: unknown) => {
          const { error: code, status, response } = error as { error?: string; status?: number; response?: Response };
          return `${status} ${code} ${response?.headers.get('retry-after') ?? '-'}`;
        },
      );
    const lock = async () => {
      for (let i = 0; i < 3; i++) expect(await grant(forged)).to.equal('401 invalid_client -');
    };
    await lock();
    expect(await grant(signed)).to.equal('429 invalid_client 30');
    clock.advanceSeconds(31);
    expect(await grant(signed), 'authenticated: the unknown code is what is refused').to.equal('400 invalid_grant -');
    await lock();
    expect(await grant(signed), 'a first lock again').to.equal('429 invalid_client 30');
  });

  it('a lock without a success in between doubles', async () => {
    await lockOut();
    clock.advanceSeconds(31);
    await lockOut();
    expect((await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE)).headers.get('retry-after')).to.equal('60');
  });

  it('writes no line for each request refused while the client is locked (a flood writes nothing more than the lock)', async () => {
    await lockOut();
    const refusedLines = () => tessera.logs.filter((line) => line.includes('"event":"oidc.refused"')).length;
    const auditLinesFrom = () => tessera.audit.filter((line) => line.includes(`"address":"${from}"`)).length;
    const [logged, audited] = [refusedLines(), auditLinesFrom()];
    for (let i = 0; i < 5; i++) expect((await tokenRequest(i % 2 === 0 ? CLIENT_SECRET : 'guess-five-of-rp', UNKNOWN_CODE)).status).to.equal(429);
    expect([refusedLines(), auditLinesFrom()]).to.deep.equal([logged, audited]);
    // A wrong secret before the lock is still written, as a failed login is.
    expect(audited, 'the three failures before the lock, and the lock').to.equal(4);
  });

  it('logs each lock once, naming the client and address, and no line holds a secret or an Authorization value', async () => {
    await lockOut();
    for (let i = 0; i < 3; i++) await tokenRequest(CLIENT_SECRET, UNKNOWN_CODE);
    const lockLines = tessera.logs.filter((line) => line.includes('"event":"client.throttled"') && line.includes(`client ${from} ${CLIENT_ID}`));
    expect(lockLines).to.have.length(1);
    expect(lockLines[0]).to.include('"lockSeconds":30').and.include(`"client":"${CLIENT_ID}"`);
    const auditLines = tessera.audit.filter((line) => line.includes('"action":"client.throttled"') && line.includes(from));
    expect(auditLines).to.have.length(1);
    const written = [...tessera.logs, ...tessera.audit].join('\n');
    for (const secret of [CLIENT_SECRET, OAUTH_SECRET, ...GUESSES, basic(CLIENT_ID, CLIENT_SECRET).slice('Basic '.length), basic(CLIENT_ID, GUESSES[0]!).slice('Basic '.length)]) {
      expect(written).to.not.include(secret);
    }
  });
});

// The same bound across nodes: the attempt is counted in Redis before either node compares a secret.
describeWithRedis('throttle module: wrong client secrets sent at once to two nodes on one Redis (docs/protocol.md §5.5)', (redis) => {
  let nodes: Tessera[];
  before(async function () {
    this.timeout(60_000);
    const folder = mkdtempSync(join(tmpdir(), 'tessera-throttle-nodes-'));
    const shared = {
      modules: ['rest', 'login', 'oidc', 'throttle'],
      throttle: SETTINGS,
      storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `clients${randomBytes(4).toString('hex')}:` } },
      login: { keyFile: join(folder, 'login-key.json') },
      oidc: { keyFile: join(folder, 'oidc-keys.json') },
    };
    // The first node writes the key files, the second reads them.
    nodes = [await startOidc(shared)];
    nodes.push(await startOidc(shared));
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.close()));
  });

  const request = (node: Tessera, secret: string, parameters: Record<string, string>) =>
    fetch(`${node.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: basic(CLIENT_ID, secret) },
      body: new URLSearchParams(parameters).toString(),
    });
  const UNKNOWN_CODE = { grant_type: 'authorization_code', code: 'no-such-code-of-this-test', redirect_uri: 'https://rp.example.org/callback' };

  it('50 token requests of one confidential client with its secret split across both nodes at once all get tokens', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => request(nodes[i % 2]!, CLIENT_SECRET, { grant_type: 'client_credentials' })));
    const bodies = await Promise.all(answers.map(async (answer) => `${answer.status} ${'access_token' in ((await answer.json()) as object) ? 'token' : 'none'}`));
    expect(bodies).to.deep.equal(Array<string>(50).fill('200 token'));
  });

  it('of 20 wrong secrets split across both nodes after a failure, `threshold` minus it are compared between them: the rest get 429, and one lock is logged', async () => {
    expect((await request(nodes[0]!, 'guess-first-of-rp-on-two-nodes', UNKNOWN_CODE)).status).to.equal(401);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => request(nodes[i % 2]!, `guess-${i}-of-rp-on-two-nodes`, UNKNOWN_CODE)));
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([...Array<number>(2).fill(401), ...Array<number>(18).fill(429)]);
    expect(nodes.flatMap((node) => node.logs.filter((line) => line.includes('"client.throttled"')))).to.have.length(1);
  });
});
