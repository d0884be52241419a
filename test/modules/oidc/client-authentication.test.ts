import { expect } from 'chai';
import { exportJWK, generateKeyPair } from 'jose';
import * as client from 'openid-client';
import type { Tessera } from '../../support/tessera.js';
import { authorizeThroughLoginForm, CLIENT_ID, CLIENT_SECRET, RP_SERVICE, startOidc } from './support.js';

const POST_REDIRECT = 'https://post.example.org/callback';
const JWT_REDIRECT = 'https://jwt.example.org/callback';

// docs/modules/oidc.md (Flows): the token endpoint's client authentication methods, introspection
// and revocation, each through openid-client.
describe('oidc: client authentication, introspection and revocation through openid-client', () => {
  let tessera: Tessera;
  let issuer: string;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  const insecure = { execute: [client.allowInsecureRequests] };

  before(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'rp-key-1', alg: 'RS256', use: 'sig' };
    const post = { ...RP_SERVICE, id: 12, name: 'Posting client', serviceId: '^https://post\\.example\\.org/callback$', clientId: 'post', tokenEndpointAuthenticationMethod: 'client_secret_post' };
    const { clientSecret: _none, ...withoutSecret } = RP_SERVICE;
    const signing = { ...withoutSecret, id: 13, name: 'Signing client', serviceId: '^https://jwt\\.example\\.org/callback$', clientId: 'jwt', tokenEndpointAuthenticationMethod: 'private_key_jwt', jwks: JSON.stringify({ keys: [publicJwk] }) };
    tessera = await startOidc({ services: [RP_SERVICE, post, signing] });
    issuer = `${tessera.url}/oidc`;
  });
  after(() => tessera.close());

  /** Code + PKCE for `config`'s client through the login form; its tokens. */
  async function tokensFor(config: client.Configuration, redirectUri: string) {
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, redirectUri, 'openid email offline_access');
    return client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  }

  it('client_secret_post: tokens for the client that posts its secret; a wrong one posted is refused', async () => {
    const config = await client.discovery(new URL(issuer), 'post', CLIENT_SECRET, client.ClientSecretPost(CLIENT_SECRET), insecure);
    const tokens = await tokensFor(config, POST_REDIRECT);
    expect(tokens.claims()?.sub).to.equal('casuser');
    const wrong = await client.discovery(new URL(issuer), 'post', 'not-the-secret-of-post', client.ClientSecretPost('not-the-secret-of-post'), insecure);
    const refused = await client.refreshTokenGrant(wrong, tokens.refresh_token!).then(
      () => 'accepted',
      (error: unknown) => (error as { error?: string }).error,
    );
    expect(refused).to.equal('invalid_client');
  });

  it('private_key_jwt: tokens for a client assertion signed with the registered key; one signed with another key is refused', async () => {
    const config = await client.discovery(new URL(issuer), 'jwt', undefined, client.PrivateKeyJwt({ key: privateKey, kid: 'rp-key-1' }), insecure);
    const tokens = await tokensFor(config, JWT_REDIRECT);
    expect(tokens.claims()?.sub).to.equal('casuser');
    const stranger = (await generateKeyPair('RS256')).privateKey;
    const forged = await client.discovery(new URL(issuer), 'jwt', undefined, client.PrivateKeyJwt({ key: stranger, kid: 'rp-key-1' }), insecure);
    const refused = await client.refreshTokenGrant(forged, tokens.refresh_token!).then(
      () => 'accepted',
      (error: unknown) => (error as { error?: string }).error,
    );
    expect(refused).to.equal('invalid_client');
  });

  it('a wrong secret at introspection and at revocation is written as a refusal (log and audit), never with the secret', async () => {
    const refusals = (request: string) => tessera.logs.filter((line) => line.includes('"event":"oidc.refused"') && line.includes(`"request":"${request}"`));
    const audited = (request: string) => tessera.audit.filter((line) => line.includes('"action":"oidc.refused"') && line.includes(`"request":"${request}"`));
    const wrong = `Basic ${Buffer.from(`${CLIENT_ID}:not-the-secret-of-rp`).toString('base64')}`;
    for (const path of ['/oidc/token/introspection', '/oidc/token/revocation']) {
      const answer = await fetch(`${tessera.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: wrong }, body: 'token=some-token-of-nobody' });
      expect([path, answer.status, ((await answer.json()) as { error?: string }).error]).to.deep.equal([path, 401, 'invalid_client']);
    }
    for (const request of ['introspection', 'revocation']) {
      expect(refusals(request), `the ${request} refusal in the log`).to.have.length(1);
      expect(refusals(request)[0]).to.include(`"error":"invalid_client","client":"${CLIENT_ID}"`);
      expect(audited(request), `the ${request} refusal in the audit trail`).to.have.length(1);
    }
    expect([...tessera.logs, ...tessera.audit].join('\n')).to.not.include('not-the-secret-of-rp');
  });

  it('introspection answers active with the client and subject; after revocation the token is inactive and userinfo refuses it', async () => {
    const config = await client.discovery(new URL(issuer), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), insecure);
    const tokens = await tokensFor(config, 'https://rp.example.org/callback');
    const active = await client.tokenIntrospection(config, tokens.access_token);
    expect(active).to.deep.include({ active: true, client_id: CLIENT_ID, sub: 'casuser' });
    // Another client learns nothing of it, and cannot end it.
    const other = await client.discovery(new URL(issuer), 'post', CLIENT_SECRET, client.ClientSecretPost(CLIENT_SECRET), insecure);
    expect(await client.tokenIntrospection(other, tokens.access_token)).to.deep.equal({ active: false });
    await client.tokenRevocation(other, tokens.access_token).catch(() => undefined);
    expect(await client.tokenIntrospection(config, tokens.access_token)).to.deep.include({ active: true });

    await client.tokenRevocation(config, tokens.access_token);
    expect(await client.tokenIntrospection(config, tokens.access_token)).to.deep.include({ active: false });
    expect((await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).to.equal(401);

    await client.tokenRevocation(config, tokens.refresh_token!);
    expect(await client.tokenIntrospection(config, tokens.refresh_token!)).to.deep.include({ active: false });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!).then(
      () => 'accepted',
      (error: unknown) => (error as { error?: string }).error,
    );
    expect(refreshed).to.equal('invalid_grant');
  });
});
