import { expect } from 'chai';
import type { ServiceDefinition } from '@tessera/core';
import { OIDC_CLIENT } from '@tessera/core/modules/oidc';
import { OIDC_CLIENTS_CODEC, refusalOf } from './built-in-codec.js';

const { parse: parseServiceDefinition, render: toCasServiceJson, warnings: serviceDefinitionWarnings, strictProblems: strictServiceProblems } = OIDC_CLIENTS_CODEC;
/** The client the oidc module keeps on its service. */
const clientOf = (service: ServiceDefinition) => OIDC_CLIENT.of(service);

const OAUTH = 'org.apereo.cas.support.oauth.services.OAuthRegisteredService';
const OIDC = 'org.apereo.cas.services.OidcRegisteredService';
const SECRET = 'a-secret-of-at-least-16';
/** As the corpus's OAuth files are written: a client id, a secret and a pattern. */
const CLIENT = { '@class': OAUTH, id: 1002, name: 'OAUTH-1002', serviceId: '^https://app\\.example\\.org/.*', clientId: '20180901', clientSecret: SECRET };

const problems = (json: unknown): string[] => refusalOf(() => parseServiceDefinition(json));
const roundTrip = (json: Record<string, unknown>) => {
  const parsed = parseServiceDefinition(json);
  expect(parseServiceDefinition(toCasServiceJson({ ...parsed, id: 7 }))).to.deep.equal({ ...parsed, id: 7 });
  return parsed;
};

// docs/services.md (OAuth 2.0 and OpenID Connect clients): Apereo's OAuthRegisteredService and the keys it shares with OidcRegisteredService.
describe('service definitions: OAuthRegisteredService, and the OAuth keys of OidcRegisteredService', () => {
  it("reads an OAuth client with Apereo's defaults: the code flow and a token of its own, refresh tokens neither given nor renewed, every scope but openid, the secret sent either way", () => {
    expect(clientOf(roundTrip(CLIENT))).to.deep.equal({
      clientId: '20180901',
      clientSecret: SECRET,
      tokenEndpointAuthenticationMethod: 'client_secret_basic',
      scopes: [],
      supportedGrantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      supportedResponseTypes: ['code'],
      bypassApprovalPrompt: false,
      generateRefreshToken: false,
      renewRefreshToken: false,
    });
    // Apereo's empty sets mean no restriction: the defaults.
    const empty = ['java.util.HashSet', []];
    expect(parseServiceDefinition({ ...CLIENT, scopes: empty, supportedGrantTypes: empty, supportedResponseTypes: empty })).to.deep.equal(parseServiceDefinition(CLIENT));
  });

  it('keeps the class as written (CAS 4 wrote it in org.jasig) and renders only the keys the class has', () => {
    const jasig = roundTrip({ ...CLIENT, '@class': 'org.jasig.cas.support.oauth.services.OAuthRegisteredService' });
    expect(jasig.type).to.equal('org.jasig.cas.support.oauth.services.OAuthRegisteredService');
    const rendered = toCasServiceJson({ ...parseServiceDefinition(CLIENT), id: 7 });
    expect(rendered).to.not.have.property('tokenEndpointAuthenticationMethod');
    expect(rendered).to.deep.include({ '@class': OAUTH, clientId: '20180901', renewRefreshToken: false, generateRefreshToken: false });
  });

  it('reads generateRefreshToken, renewRefreshToken (also as Jackson reads the strings), bypassApprovalPrompt and userProfileViewType', () => {
    const client = clientOf(roundTrip({ ...CLIENT, generateRefreshToken: true, renewRefreshToken: 'TRUE', bypassApprovalPrompt: true, userProfileViewType: 'FLAT', scopes: ['java.util.HashSet', ['profile', 'email']] }));
    expect(client).to.deep.include({ generateRefreshToken: true, renewRefreshToken: true, bypassApprovalPrompt: true, userProfileViewType: 'FLAT', scopes: ['profile', 'email'] });
  });

  it('a public OAuth client has no secret: none, and PKCE then', () => {
    const { clientSecret: _secret, ...publicClient } = CLIENT;
    expect(clientOf(roundTrip(publicClient))).to.deep.include({ tokenEndpointAuthenticationMethod: 'none' }).and.not.have.property('clientSecret');
  });

  it('an OidcRegisteredService reads renewRefreshToken (default false) and userProfileViewType too', () => {
    const oidc = { ...CLIENT, '@class': OIDC };
    expect(clientOf(roundTrip(oidc))).to.deep.include({ renewRefreshToken: false, scopes: [] });
    expect(clientOf(roundTrip({ ...oidc, renewRefreshToken: true, userProfileViewType: 'NESTED' }))).to.deep.include({ renewRefreshToken: true, userProfileViewType: 'NESTED' });
  });

  it("refuses what it cannot serve, every problem of the client at once, saying what to write instead", () => {
    expect(
      problems({
        ...CLIENT,
        clientId: 'with space',
        scopes: ['java.util.HashSet', ['openid', 'profile']],
        supportedGrantTypes: ['java.util.HashSet', ['password']],
        supportedResponseTypes: ['java.util.HashSet', ['token']],
        userProfileViewType: 'XML',
        renewRefreshToken: 'maybe',
      }),
    ).to.deep.equal([
      'clientId: is required: up to 255 printable ASCII characters, no spaces',
      'scopes: holds openid, which an OAuth client never gets: make it an OidcRegisteredService for OpenID Connect',
      "supportedGrantTypes: holds \"password\", not supported by tessera: the password grant hands the user's password to the client, and tessera's users type it only in its login form: use authorization_code",
      'supportedResponseTypes: holds "token", not supported by tessera: the implicit flow puts the access token in the URL the browser goes to: use code',
      'userProfileViewType: must be one of NESTED, FLAT',
      'renewRefreshToken: must be a boolean',
    ]);
    // Beside types it serves, one tessera never serves is kept, said, and not served.
    const beside = parseServiceDefinition({ ...CLIENT, supportedGrantTypes: ['java.util.HashSet', ['password', 'authorization_code']] });
    expect(clientOf(beside)?.supportedGrantTypes).to.deep.equal(['password', 'authorization_code']);
    expect(serviceDefinitionWarnings(beside)).to.deep.equal([
      `service "OAUTH-1002" (id 1002): its supportedGrantTypes hold password, the password grant (tessera's users type their password only in its login form), which tessera does not serve: the client's requests for it are refused, its other types are served`,
    ]);
    // A public client (no secret) has nothing to prove itself with: no token of its own.
    const { clientSecret: _secret, ...publicClient } = CLIENT;
    expect(problems({ ...publicClient, supportedGrantTypes: ['java.util.HashSet', ['client_credentials']] })).to.deep.equal([
      'supportedGrantTypes: holds client_credentials, which a public client cannot use: it has no clientSecret or keys to prove itself with',
    ]);
    expect(clientOf(parseServiceDefinition(publicClient))?.supportedGrantTypes).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(clientOf(parseServiceDefinition({ ...CLIENT, supportedGrantTypes: ['java.util.HashSet', ['client_credentials']] }))?.supportedGrantTypes).to.deep.equal(['client_credentials']);
    expect(problems({ ...CLIENT, clientId: undefined, clientSecret: '' })).to.deep.equal([
      'clientId: is required: up to 255 printable ASCII characters, no spaces',
      'clientSecret: must be a non-empty string; leave it out for a public client',
    ]);
  });

  it("loads a secret shorter than 16 characters as Apereo does (its own examples use `secret`), with a warning naming the service and why; strict mode refuses it", () => {
    const short = roundTrip({ ...CLIENT, clientSecret: 'secret' });
    expect(clientOf(short)?.clientSecret).to.equal('secret');
    expect(serviceDefinitionWarnings(short)).to.deep.equal([
      'service "OAUTH-1002" (id 1002): its clientSecret has 6 character(s), fewer than 16: one this short can be guessed by whoever tries the token endpoint; give the client a random clientSecret of at least 16 characters (openssl rand -base64 24)',
    ]);
    expect(strictServiceProblems(short).map(({ field }) => field)).to.deep.equal(['clientSecret']);
    expect(strictServiceProblems(short)[0]?.problem).to.match(/fewer than 16: .* \(refused in strict mode\)$/);
    expect(serviceDefinitionWarnings(parseServiceDefinition({ ...CLIENT, clientSecret: 'x'.repeat(16) }))).to.deep.equal([]);
  });

  it('jwtAccessToken (also the string "true") round-trips; keys of its own are read (written or ${#env[…]}), a short one, encryption without a key and neither signing nor encryption refused, naming the property', () => {
    expect(clientOf(roundTrip({ ...CLIENT, jwtAccessToken: 'true' }))?.jwtAccessToken).to.equal(true);
    expect(clientOf(roundTrip({ ...CLIENT, jwtAccessToken: false }))).to.not.have.property('jwtAccessToken');
    const property = (value: string) => ({ '@class': 'org.apereo.cas.services.DefaultRegisteredServiceProperty', values: ['java.util.HashSet', [value]] });
    expect(problems({ ...CLIENT, jwtAccessToken: true, properties: { '@class': 'java.util.HashMap', accessTokenAsJwtSigningKey: property('k'), accessTokenAsJwtSigningEnabled: property('true') } })).to.deep.equal([
      "properties.accessTokenAsJwtSigningKey: must be a key of at least 256 bits as base64url (a JWK's k), or ${#env['NAME']}, the environment variable holding one",
    ]);
    expect(clientOf(roundTrip({ ...CLIENT, jwtAccessToken: true, properties: { accessTokenAsJwtSigningKey: property("${#env['AT_KEY']}") } }))?.accessTokenSigningKey).to.equal("${#env['AT_KEY']}");
    expect(clientOf(roundTrip({ ...CLIENT, jwtAccessToken: true, properties: { accessTokenAsJwtEncryptionKey: property("${#env['AT_ENC']}"), accessTokenAsJwtSigningEnabled: property('false') } }))).to.deep.include({ accessTokenEncryptionKey: "${#env['AT_ENC']}" }).and.not.have.property('accessTokenSigningKey');
    expect(problems({ ...CLIENT, jwtAccessToken: true, properties: { accessTokenAsJwtSigningEnabled: property('false') } })).to.deep.equal([
      'properties.accessTokenAsJwtSigningEnabled: is false without an accessTokenAsJwtEncryptionKey: a JWT access token neither signed nor encrypted is refused',
    ]);
    expect(problems({ ...CLIENT, jwtAccessToken: true, properties: { accessTokenAsJwtEncryptionEnabled: property('true') } })).to.deep.equal([
      "properties.accessTokenAsJwtEncryptionEnabled: is true without accessTokenAsJwtEncryptionKey: tessera encrypts a client's JWT access tokens only with a key of its own",
    ]);
    expect(clientOf(roundTrip({ ...CLIENT, jwtAccessToken: true, properties: { accessTokenAsJwtSigningEnabled: property('true'), accessTokenAsJwtEncryptionEnabled: property('false') } }))?.jwtAccessToken).to.equal(true);
  });

  it("Apereo's other OAuth keys: accepted where they ask for what tessera does, refused otherwise; OIDC's own keys refused on an OAuth client", () => {
    expect(parseServiceDefinition({ ...CLIENT, jsonFormat: true, audience: ['java.util.HashSet', []], responseMode: 'query' })).to.deep.equal(parseServiceDefinition(CLIENT));
    expect(
      problems({ ...CLIENT, jsonFormat: false, accessTokenExpirationPolicy: { maxTimeToLive: 'PT1H' }, tokenEndpointAuthenticationMethod: 'client_secret_post' }),
    ).to.deep.equal([
      'jsonFormat: not supported by tessera: the token endpoint answers in JSON, as CAS 6 and later do; accepted only as true',
      "accessTokenExpirationPolicy: not supported by tessera: a client's codes and tokens live as long as the oidc.* settings say, the same for every client",
      'tokenEndpointAuthenticationMethod: unknown key for this class (CAS ignores it): it is read only with OidcRegisteredService',
    ]);
  });

  it("refuses CAS 4's OAuth callback service, which tessera does not need, saying so", () => {
    expect(problems({ '@class': 'org.jasig.cas.support.oauth.services.OAuthCallbackAuthorizeService', id: 1, serviceId: '^https://cas/oauth2/callbackAuthorize' })).to.deep.equal([
      "@class: is CAS 4's own OAuth callback service, which tessera does not need: the oidc module serves the OAuth endpoints and registers its login callback itself; remove this definition",
    ]);
  });
});
