import { expect } from 'chai';
import * as client from 'openid-client';
import type { Tessera } from '../../support/tessera.js';
import { authorizeThroughLoginForm, CLIENT_SECRET, RP_SERVICE, startOidc } from './support.js';

const { generateRefreshToken: _asked, ...WITHOUT_FLAG } = RP_SERVICE;
const { renewRefreshToken: _renewed, ...NOT_RENEWED } = RP_SERVICE;
/** A client with refresh tokens that says nothing of renewing them: Apereo's default, the same one used again. */
const KEPT = { ...NOT_RENEWED, id: 16, name: 'Kept client', serviceId: '^https://kept\\.example\\.org/callback$', clientId: 'kept' };
/** A public client (no secret, PKCE) that says nothing of renewing: its refresh tokens rotate all the same. */
const { clientSecret: _secret, ...NO_SECRET } = NOT_RENEWED;
const PUBLIC = { ...NO_SECRET, id: 17, name: 'Public client', serviceId: '^https://public\\.example\\.org/callback$', clientId: 'public' };
/** A client that says nothing of refresh tokens, nor lists offline_access: Apereo's default, none. */
const PLAIN = { ...WITHOUT_FLAG, id: 14, name: 'Plain client', serviceId: '^https://plain\\.example\\.org/callback$', clientId: 'plain', scopes: ['java.util.HashSet', ['openid', 'profile', 'email']] };
/** A client that lists offline_access among its scopes, generateRefreshToken unsaid: Apereo gives it refresh tokens (oidc-authzcode-refresh-token). */
const LISTED = { ...WITHOUT_FLAG, id: 18, name: 'Listing client', serviceId: '^https://listed\\.example\\.org/callback$', clientId: 'listed' };
/** A client that asks for them as some Apereo files do, the flag a string Jackson reads as a boolean. */
const QUOTED = { ...WITHOUT_FLAG, id: 15, name: 'Quoted client', serviceId: '^https://quoted\\.example\\.org/callback$', clientId: 'quoted', generateRefreshToken: 'true' };

// docs/modules/oidc.md (Flows): refresh tokens only for the clients whose generateRefreshToken says so, renewed on use only when renewRefreshToken says so.
describe('oidc: generateRefreshToken decides whether a client gets refresh tokens, through openid-client', () => {
  let tessera: Tessera;
  let issuer: string;
  const insecure = { execute: [client.allowInsecureRequests] };

  before(async () => {
    tessera = await startOidc({ services: [RP_SERVICE, PLAIN, QUOTED, KEPT, PUBLIC, LISTED] });
    issuer = `${tessera.url}/oidc`;
  });
  after(() => tessera.close());

  const configFor = (clientId: string) => client.discovery(new URL(issuer), clientId, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), insecure);

  /** Code + PKCE with `offline_access` asked, through the login form; the token endpoint's answer. */
  async function tokensFor(config: client.Configuration, redirectUri: string) {
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, redirectUri, 'openid email offline_access');
    return client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  }

  const errorOf = (attempt: Promise<unknown>) =>
    attempt.then(
      () => 'accepted',
      (error: unknown) => (error as { error?: string }).error,
    );

  it('a client without generateRefreshToken gets no refresh token though it asks for offline_access, and may not use the refresh grant', async () => {
    const config = await configFor('plain');
    const tokens = await tokensFor(config, 'https://plain.example.org/callback');
    expect(tokens.access_token).to.be.a('string');
    expect(tokens.claims()?.sub).to.equal('casuser');
    expect(tokens).to.not.have.property('refresh_token');
    expect(tokens.scope?.split(' ')).to.not.include('offline_access');
    // A refresh token another client was given is no way around it.
    const other = await tokensFor(await configFor('rp'), 'https://rp.example.org/callback');
    expect(other.refresh_token).to.be.a('string');
    const refused = await client.refreshTokenGrant(config, other.refresh_token!).then(
      () => undefined,
      (error: unknown) => error as { error?: string; error_description?: string },
    );
    // The library's answer to a grant type the client may not use.
    expect(refused).to.deep.include({ error: 'invalid_request', error_description: 'requested grant type is not allowed for this client' });
  });

  it('generateRefreshToken "true", as Jackson reads a string: a refresh token, rotated on use', async () => {
    const config = await configFor('quoted');
    const tokens = await tokensFor(config, 'https://quoted.example.org/callback');
    expect(tokens.refresh_token).to.be.a('string');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).to.be.a('string').and.not.equal(tokens.refresh_token);
    expect(await errorOf(client.refreshTokenGrant(config, tokens.refresh_token!))).to.equal('invalid_grant');
  });

  it("offline_access among a client's scopes gives it refresh tokens without generateRefreshToken, as Apereo's service registry listener does", async () => {
    const config = await configFor('listed');
    const tokens = await tokensFor(config, 'https://listed.example.org/callback');
    expect(tokens.refresh_token).to.be.a('string');
    expect((await client.refreshTokenGrant(config, tokens.refresh_token!)).access_token).to.be.a('string');
  });

  it('without renewRefreshToken (Apereo reads it on OIDC clients too, default false): the same refresh token serves again', async () => {
    const config = await configFor('kept');
    const tokens = await tokensFor(config, 'https://kept.example.org/callback');
    const once = await client.refreshTokenGrant(config, tokens.refresh_token!);
    const twice = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect([once.refresh_token, twice.refresh_token]).to.deep.equal([tokens.refresh_token, tokens.refresh_token]);
    expect(twice.access_token).to.be.a('string').and.not.equal(once.access_token);
  });

  it('a public client without renewRefreshToken: each refresh hands out a new refresh token and the used one is refused', async () => {
    const config = await client.discovery(new URL(issuer), 'public', undefined, client.None(), insecure);
    const tokens = await tokensFor(config, 'https://public.example.org/callback');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).to.be.a('string').and.not.equal(tokens.refresh_token);
    expect(await errorOf(client.refreshTokenGrant(config, tokens.refresh_token!))).to.equal('invalid_grant');
  });
});
