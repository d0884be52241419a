import { expect } from 'chai';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { compactDecrypt, createRemoteJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import * as client from 'openid-client';
import { Browser, headingOf } from '../support/browser.js';
import type { Tessera } from '../support/tessera.js';
import { follow, startOidc } from './support.js';

const insecure = { execute: [client.allowInsecureRequests] };
const CASUSER = { username: 'casuser', password: 'Mellon', attributes: { email: ['casuser@example.org'], organization: ['Apereo'] } };

/** A service file of the corpus (test/fixtures/apereo-services), exactly as Apereo's browser tests wrote it. */
function corpusFile(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../fixtures/apereo-services/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

/** A private JWK of the provider's key set: an RS256 key, or an EC key of ES512 on P-521. */
function providerKey(kid: string, kind: 'RS256' | 'ES512'): Record<string, string> {
  const { privateKey } = kind === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-521' });
  return { ...(privateKey.export({ format: 'jwk' }) as Record<string, string>), kid, alg: kind, use: 'sig' };
}

/** The tokens a code flow through tessera's login form (and its consent page, where the client has one) gets for the client, its ID token as sent. */
async function codeFlow(tessera: Tessera, clientId: string, secret: string, redirectUri: string, idTokenAlg: string): Promise<{ idToken: string; accessToken: string; issuer: string }> {
  const config = await client.discovery(new URL(`${tessera.url}/oidc`), clientId, { client_secret: secret, id_token_signed_response_alg: idTokenAlg }, client.ClientSecretBasic(secret), insecure);
  const browser = new Browser();
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
  let visit = await follow(browser, await browser.get(url.href), tessera.url);
  if (headingOf(visit.body) === 'Log in') visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), tessera.url);
  if (headingOf(visit.body) === 'Allow access') visit = await follow(browser, await browser.submit(visit, { decision: 'allow' }), tessera.url);
  expect(visit.location, visit.body).to.match(new RegExp(`^${redirectUri}\\?code=`));
  const tokens = await client.authorizationCodeGrant(config, new URL(visit.location!), { pkceCodeVerifier: verifier });
  return { idToken: tokens.id_token ?? '', accessToken: tokens.access_token, issuer: config.serverMetadata().issuer };
}

// docs/modules/oidc.md (Keys): Apereo's oidc-login-jwt-at, its two clients each naming a key of the
// provider's key set (jwksKeyId), the second an ES512 key, as the scenario's keystore holds them.
describe("oidc: Apereo's jwksKeyId, the provider's key a client's tokens are signed with (oidc-login-jwt-at)", () => {
  let tessera: Tessera;
  let jwks: ReturnType<typeof createRemoteJWKSet>;

  before(async () => {
    const keys = { keys: [providerKey('RSA', 'RS256'), providerKey('previous', 'RS256'), providerKey('EC', 'ES512')], cookieSecrets: ['cookie-secret-of-at-least-32-characters'] };
    const named = (id: number, clientId: string, jwksKeyId: string) => ({
      '@class': 'org.apereo.cas.services.OidcRegisteredService', id, name: clientId, clientId, clientSecret: 'not-a-', serviceId: `^https://${clientId}\\.example\\.org/cb$`, jwksKeyId, scopes: ['java.util.HashSet', ['openid']],
    });
    tessera = await startOidc({
      users: [CASUSER],
      services: [
        corpusFile('apereo__cas/oidc-login-jwt-at--services--Sample-1.json'),
        corpusFile('apereo__cas/oidc-login-jwt-at--services--Sample-2.json'),
        named(3, 'unknown-kid', 'nowhere'),
        named(4, 'previous-kid', 'previous'),
      ],
      oidc: { keys: JSON.stringify(keys) },
    });
    jwks = createRemoteJWKSet(new URL(`${tessera.url}/oidc/jwks`));
  });
  after(() => tessera?.close());

  it('discovery advertises the algorithms of the key set, and the JWKS publishes every key of it', async () => {
    const discovery = (await (await fetch(`${tessera.url}/oidc/.well-known/openid-configuration`)).json()) as { id_token_signing_alg_values_supported: string[] };
    expect(discovery.id_token_signing_alg_values_supported).to.deep.equal(['RS256', 'ES512']);
    const published = (await (await fetch(`${tessera.url}/oidc/jwks`)).json()) as { keys: { kid: string; d?: string }[] };
    expect(published.keys.map((key) => key.kid)).to.deep.equal(['RSA', 'previous', 'EC']);
    expect(published.keys.some((key) => key.d !== undefined)).to.equal(false);
  });

  it('jwksKeyId EC with idTokenSigningAlg ES512: the ID token and the JWT access token are signed with the EC key, and verify against the JWKS', async () => {
    const { idToken, accessToken, issuer } = await codeFlow(tessera, 'client2', 'not-a-', 'http://localhost:9889/anything/app2', 'ES512');
    expect(decodeProtectedHeader(idToken)).to.include({ alg: 'ES512', kid: 'EC' });
    expect(decodeProtectedHeader(accessToken)).to.include({ alg: 'ES512', kid: 'EC', typ: 'at+jwt' });
    expect((await jwtVerify(idToken, jwks, { issuer, audience: 'client2', algorithms: ['ES512'] })).payload['sub']).to.equal('casuser');
    expect((await jwtVerify(accessToken, jwks, { issuer, audience: 'client2', algorithms: ['ES512'] })).payload['client_id']).to.equal('client2');
  });

  it('jwksKeyId RSA: both tokens are signed with the RSA key of that kid', async () => {
    const { idToken, accessToken, issuer } = await codeFlow(tessera, 'client', 'not-a-', 'http://localhost:9889/anything/app', 'RS256');
    expect(decodeProtectedHeader(idToken)).to.include({ alg: 'RS256', kid: 'RSA' });
    expect(decodeProtectedHeader(accessToken)).to.include({ alg: 'RS256', kid: 'RSA' });
    await jwtVerify(accessToken, jwks, { issuer, audience: 'client', algorithms: ['RS256'] });
  });

  it('a jwksKeyId naming no key, or the previous RS256 key (which signs no new token), is no client: invalid_client, no login page', async () => {
    for (const clientId of ['unknown-kid', 'previous-kid']) {
      const url = new URL(`${tessera.url}/oidc/auth`);
      url.search = new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'openid', redirect_uri: `https://${clientId}.example.org/cb` }).toString();
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status, clientId).to.equal(400);
      expect(await answer.text(), clientId).to.include('invalid_client');
    }
  });
});

// docs/modules/oidc.md (Keys): Apereo's oidc-login-jwt-hmac, a client whose jwks holds a shared secret it MACs its assertions with.
describe("oidc: a jwks holding a shared secret, Apereo's HMAC client (oidc-login-jwt-hmac)", () => {
  let tessera: Tessera;
  const definition = corpusFile('wpillacam__cas_apereo/oidc-login-jwt-hmac--services--Sample-1.json');
  const secret = String(definition['jwks']);

  before(async () => {
    tessera = await startOidc({ users: [CASUSER], services: [definition] });
  });
  after(() => tessera?.close());

  /** The token endpoint's answer to a client_credentials grant with an assertion MACed (HS512) with `key`. */
  async function clientCredentials(key: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const issuer = `${tessera.url}/oidc`;
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuer('client')
      .setSubject('client')
      .setAudience(issuer)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(key));
    const answer = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'client', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }

  it('an assertion MACed with HS512 and the secret of its jwks authenticates it: a JWT access token for itself, which the JWKS verifies', async () => {
    const { status, body } = await clientCredentials(secret);
    expect(status, JSON.stringify(body)).to.equal(200);
    const { payload, protectedHeader } = await jwtVerify(String(body['access_token']), createRemoteJWKSet(new URL(`${tessera.url}/oidc/jwks`)), { audience: 'client', typ: 'at+jwt' });
    expect(payload).to.include({ client_id: 'client', sub: 'client' });
    expect(protectedHeader.alg).to.equal('RS256');
  });

  it('an assertion MACed with another secret is invalid_client', async () => {
    const { status, body } = await clientCredentials(`${secret}-not`);
    expect(status).to.equal(401);
    expect(body['error']).to.equal('invalid_client');
  });
});

// docs/modules/oidc.md (Keys): Apereo's oidc-authzcode-idtoken-issuer, a client naming an issuer of its own (idTokenIssuer).
describe("oidc: Apereo's idTokenIssuer, loaded and not used: the ID token names discovery's issuer (oidc-authzcode-idtoken-issuer)", () => {
  let tessera: Tessera;
  const definition = corpusFile('wpillacam__cas_apereo/oidc-authzcode-idtoken-issuer--services--Sample-1.json');

  before(async () => {
    tessera = await startOidc({ users: [CASUSER], services: [definition] });
  });
  after(() => tessera?.close());

  it("the code flow through openid-client, which checks the issuer: the ID token's iss is the one discovery publishes, never the client's own; the start said so", async () => {
    const { idToken, issuer } = await codeFlow(tessera, 'client', 'not-a-', 'https://app1.example.org/cb', 'RS256');
    expect(issuer).to.equal(`${tessera.url}/oidc`);
    const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${tessera.url}/oidc/jwks`)), { audience: 'client' });
    expect(payload['iss']).to.equal(issuer).and.not.equal(definition['idTokenIssuer']);
    expect(tessera.logs.some((line) => line.includes('its idTokenIssuer (https://sso.example.org/cas/oidc) is not used'))).to.equal(true);
  });
});

// docs/services.md (properties): Apereo's oauth2-login-jwt-at, an OAuth client whose JWT access tokens
// are MACed with a key of its own, read from the environment variable its definition names.
describe("oidc: Apereo's accessTokenAsJwtSigningKey from ${#env['…']} (oauth2-login-jwt-at)", () => {
  let tessera: Tessera;
  const definition = corpusFile('wpillacam__cas_apereo/oauth2-login-jwt-at--services--Sample-1.json');
  const VARIABLE = 'OAUTH_ACCESS_TOKEN_SIGNING_KEY';
  const key = randomBytes(64);
  const earlier = process.env[VARIABLE];

  before(async () => {
    process.env[VARIABLE] = key.toString('base64url');
    tessera = await startOidc({ users: [CASUSER], services: [definition] });
  });
  after(async () => {
    if (earlier === undefined) delete process.env[VARIABLE];
    else process.env[VARIABLE] = earlier;
    await tessera?.close();
  });

  async function accessToken(): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await fetch(`${tessera.url}/oauth2.0/accessToken`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('client:not-a-').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }

  it("the client's JWT access token is MACed (HS512) with the key of the environment variable: that key verifies it, the provider's JWKS does not", async () => {
    const { status, body } = await accessToken();
    expect(status, JSON.stringify(body)).to.equal(200);
    const token = String(body['access_token']);
    const { payload, protectedHeader } = await jwtVerify(token, key, { audience: 'client', typ: 'at+jwt', algorithms: ['HS512'] });
    expect(protectedHeader.alg).to.equal('HS512');
    expect(payload).to.include({ client_id: 'client', iss: `${tessera.url}/oidc` });
    const byJwks = await jwtVerify(token, createRemoteJWKSet(new URL(`${tessera.url}/oidc/jwks`))).then(() => 'verified', () => 'refused');
    const byAnother = await jwtVerify(token, randomBytes(64), { algorithms: ['HS512'] }).then(() => 'verified', () => 'refused');
    expect([byJwks, byAnother]).to.deep.equal(['refused', 'refused']);
  });

  it('without the variable the definition is no client: invalid_client, no token signed with another key', async () => {
    delete process.env[VARIABLE];
    try {
      const { status, body } = await accessToken();
      expect(status).to.equal(401);
      expect(body['error']).to.equal('invalid_client');
    } finally {
      process.env[VARIABLE] = key.toString('base64url');
    }
  });
});

// docs/services.md (properties): Apereo's oauth2-login-jwt-at, its second client: JWT access tokens
// encrypted (not signed) with a key of its own, read from the environment variable its definition names.
describe("oidc: Apereo's accessTokenAsJwtEncryptionKey from ${#env['…']}, signing off (oauth2-login-jwt-at)", () => {
  let tessera: Tessera;
  const definition = corpusFile('wpillacam__cas_apereo/oauth2-login-jwt-at--services--Sample-2.json');
  const VARIABLE = 'OAUTH_ACCESS_TOKEN_ENCRYPTION_KEY';
  const key = randomBytes(64);
  const earlier = process.env[VARIABLE];

  before(async () => {
    process.env[VARIABLE] = key.toString('base64url');
    tessera = await startOidc({ users: [CASUSER], services: [definition] });
  });
  after(async () => {
    if (earlier === undefined) delete process.env[VARIABLE];
    else process.env[VARIABLE] = earlier;
    await tessera?.close();
  });

  it("the client's JWT access token is a JWE (dir, A256CBC-HS512 for a 512-bit key) that only its key opens, holding the token's claims", async () => {
    const answer = await fetch(`${tessera.url}/oauth2.0/accessToken`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('client2:not-a-').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    const body = (await answer.json()) as Record<string, unknown>;
    expect(answer.status, JSON.stringify(body)).to.equal(200);
    const token = String(body['access_token']);
    expect(token.split('.')).to.have.length(5);
    const { plaintext, protectedHeader } = await compactDecrypt(token, key);
    expect(protectedHeader).to.include({ alg: 'dir', enc: 'A256CBC-HS512' });
    expect(JSON.parse(new TextDecoder().decode(plaintext))).to.include({ client_id: 'client2', aud: 'client2', iss: `${tessera.url}/oidc` });
    const withAnother = await compactDecrypt(token, randomBytes(64)).then(() => 'opened', () => 'refused');
    expect(withAnother).to.equal('refused');
  });
});
