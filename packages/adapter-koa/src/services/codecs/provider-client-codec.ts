import {
  isOAuthOnlyClient,
  OAUTH_REGISTERED_SERVICE_TYPES,
  OIDC_CLIENT_AUTH_METHODS,
  OIDC_REGISTERED_SERVICE,
  OIDC_SUBJECT_TYPES,
  USER_PROFILE_VIEW_TYPES,
  type InvalidServiceDefinitionError,
  type OidcClientAuthMethod,
  type OidcClientDefinition,
  type OidcSubjectType,
  type RegisteredService,
  type ServiceDefinitionProblem,
  type UserProfileViewType,
} from '@tessera/core';
// cas-service-keys.ts reads this file's key rules: only its hoisted functions and types are taken here.
import { isRecord, type KeyRules, type Unsupported } from './cas-service-keys.js';
import { javaSet, stringList } from './java-collections.js';
import { optionalBoolean, partReader, throwAll } from './parse-parts.js';

/**
 * The clients of the provider (the oidc module): Apereo's OAuthRegisteredService, a plain OAuth 2.0
 * client, and OidcRegisteredService, which extends it with OpenID Connect's keys.
 */
export const PROVIDER_CLIENT_TYPES: readonly string[] = [OIDC_REGISTERED_SERVICE, ...OAUTH_REGISTERED_SERVICE_TYPES];

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/** Why a class of Apereo's OAuth support that is no client is refused; undefined for any other class. */
export function refusedOAuthClass(type: string): string | undefined {
  if (!type.endsWith('.OAuthCallbackAuthorizeService')) return undefined;
  return "is CAS 4's own OAuth callback service, which tessera does not need: the oidc module serves the OAuth endpoints and registers its login callback itself; remove this definition";
}

/** The keys an OAuthRegisteredService reads beside those of every service; an OidcRegisteredService reads them too. */
const OAUTH_CLIENT_KEYS: readonly string[] = [
  'clientId',
  'clientSecret',
  'scopes',
  'supportedGrantTypes',
  'supportedResponseTypes',
  'bypassApprovalPrompt',
  'generateRefreshToken',
  'renewRefreshToken',
  'userProfileViewType',
];

/** The keys only an OidcRegisteredService reads. */
const OIDC_ONLY_KEYS: readonly string[] = ['tokenEndpointAuthenticationMethod', 'jwks', 'idTokenSigningAlg', 'subjectType', 'sectorIdentifierUri'];

const ONE_SET_OF_LIFETIMES = "a client's codes and tokens live as long as the oidc.* settings say, the same for every client";

const is = (expected: unknown) => (value: unknown) => value === expected;

/** Keys of Apereo's OAuth class with a behaviour tessera does not have. */
const OAUTH_UNSUPPORTED: Readonly<Record<string, Unsupported>> = {
  jsonFormat: { instead: 'the token endpoint answers in JSON, as CAS 6 and later do', accepted: { when: is(true), as: 'true' } },
  jwtAccessToken: { instead: 'access tokens are opaque; a client reads what they stand for at the profile or introspection endpoint', accepted: { when: is(false), as: 'false' } },
  audience: { instead: 'access tokens name no audience', accepted: { when: (value) => stringList(value)?.length === 0, as: 'an empty list' } },
  responseMode: { instead: 'the code goes back in the query of the redirect URI, as OAuth 2.0 says by default', accepted: { when: is('query'), as: 'query' } },
  codeExpirationPolicy: { instead: ONE_SET_OF_LIFETIMES },
  accessTokenExpirationPolicy: { instead: ONE_SET_OF_LIFETIMES },
  refreshTokenExpirationPolicy: { instead: ONE_SET_OF_LIFETIMES },
  deviceTokenExpirationPolicy: { instead: 'tessera has no device flow' },
};

/** What a provider client's `@class` adds to the keys of every service; undefined for any other class. */
export function providerClientKeys(type: unknown): Pick<KeyRules, 'read' | 'unsupported' | 'elsewhere'> | undefined {
  if (typeof type !== 'string' || !PROVIDER_CLIENT_TYPES.includes(type)) return undefined;
  if (type === OIDC_REGISTERED_SERVICE) return { read: [...OAUTH_CLIENT_KEYS, ...OIDC_ONLY_KEYS], unsupported: OAUTH_UNSUPPORTED };
  return { read: OAUTH_CLIENT_KEYS, unsupported: OAUTH_UNSUPPORTED, elsewhere: Object.fromEntries(OIDC_ONLY_KEYS.map((key) => [key, 'OidcRegisteredService'])) };
}

const OIDC_GRANT_TYPES = ['authorization_code', 'refresh_token', 'implicit'];
/** The response types an OIDC client may be registered with: those the provider serves, and discovery advertises. */
export const OIDC_RESPONSE_TYPES: readonly string[] = ['code', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token', 'none'];
const OIDC_SIGNING_ALGORITHMS = ['RS256', 'PS256', 'ES256'];

/** The grant and response types an OAuth client may use here; of Apereo's others, why not. */
const OAUTH_GRANT_TYPES = ['authorization_code', 'refresh_token'];
const OAUTH_RESPONSE_TYPES = ['code'];
const OAUTH_REFUSED: Readonly<Record<string, string>> = {
  password: "the password grant hands the user's password to the client, and tessera's users type it only in its login form: use authorization_code",
  client_credentials: 'tessera serves no token without a user: use authorization_code',
  token: 'the implicit flow puts the access token in the URL the browser goes to: use code',
};

/**
 * The client of an OidcRegisteredService or OAuthRegisteredService. Apereo's defaults: the code flow
 * (refresh tokens only with `generateRefreshToken`, the same one used again unless `renewRefreshToken`),
 * `client_secret_basic` with a secret and `none` (a public client, PKCE required) without. An OIDC client's
 * scopes default to `openid`; an OAuth client gets every scope but `openid` unless it names its own, and
 * Apereo's empty lists (no restriction) stand for the defaults.
 */
export function parseProviderClient(json: Readonly<Record<string, unknown>>, type: string, fail: Fail): OidcClientDefinition {
  const oauthOnly = isOAuthOnlyClient({ type });
  const problems: ServiceDefinitionProblem[] = [];
  const part = partReader(problems);
  const clientId = part(() => {
    const value = json['clientId'];
    if (typeof value !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(value)) throw fail('clientId', 'is required: up to 255 printable ASCII characters, no spaces');
    return value;
  });
  const clientSecret = part(() => {
    const value = json['clientSecret'] ?? undefined;
    if (value !== undefined && (typeof value !== 'string' || value.length < 16)) throw fail('clientSecret', 'must be a string of at least 16 characters');
    return value;
  });
  const secretGiven = json['clientSecret'] !== undefined && json['clientSecret'] !== null;
  const tokenEndpointAuthenticationMethod = part(() => {
    const method = (oauthOnly ? undefined : json['tokenEndpointAuthenticationMethod']) ?? (secretGiven ? 'client_secret_basic' : 'none');
    if (typeof method !== 'string' || !OIDC_CLIENT_AUTH_METHODS.includes(method as OidcClientAuthMethod)) {
      throw fail('tokenEndpointAuthenticationMethod', `must be one of ${OIDC_CLIENT_AUTH_METHODS.join(', ')}`);
    }
    const usesSecret = method === 'client_secret_basic' || method === 'client_secret_post';
    if (usesSecret && !secretGiven) throw fail('clientSecret', `is required with ${method}`);
    if (!usesSecret && secretGiven) throw fail('clientSecret', `is not used with ${method}: remove it`);
    return method as OidcClientAuthMethod;
  });
  const list = (key: string, fallback: readonly string[], allowed?: readonly string[], refused: Readonly<Record<string, string>> = {}): string[] => {
    const value = json[key];
    if (value === undefined || value === null) return [...fallback];
    const items = stringList(value);
    if (items?.length === 0 && oauthOnly) return [...fallback];
    if (!items || items.length === 0) throw fail(key, 'must be a non-empty list of strings');
    const unknown = allowed === undefined ? undefined : items.find((item) => !allowed.includes(item));
    if (unknown !== undefined && Object.hasOwn(refused, unknown)) throw fail(key, `holds ${JSON.stringify(unknown)}, not supported by tessera: ${refused[unknown]}`);
    if (unknown !== undefined) throw fail(key, `holds ${JSON.stringify(unknown)}; known: ${allowed?.join(', ')}`);
    return [...new Set(items)];
  };
  const scopes = part(() => {
    const values = list('scopes', oauthOnly ? [] : ['openid']);
    if (oauthOnly && values.includes('openid')) throw fail('scopes', 'holds openid, which an OAuth client never gets: make it an OidcRegisteredService for OpenID Connect');
    if (!oauthOnly && !values.includes('openid')) throw fail('scopes', 'must include openid');
    return values;
  });
  const supportedGrantTypes = part(() =>
    oauthOnly ? list('supportedGrantTypes', OAUTH_GRANT_TYPES, OAUTH_GRANT_TYPES, OAUTH_REFUSED) : list('supportedGrantTypes', ['authorization_code', 'refresh_token'], OIDC_GRANT_TYPES),
  );
  const supportedResponseTypes = part(() =>
    oauthOnly ? list('supportedResponseTypes', OAUTH_RESPONSE_TYPES, OAUTH_RESPONSE_TYPES, OAUTH_REFUSED) : list('supportedResponseTypes', ['code'], OIDC_RESPONSE_TYPES),
  );
  const jwks = part(() => {
    const value = json['jwks'] ?? undefined;
    if (value !== undefined && (typeof value !== 'string' || (!isJwks(value) && !value.startsWith('https://')))) throw fail('jwks', 'must be a JWKS as JSON text or an https URL');
    if (tokenEndpointAuthenticationMethod === 'private_key_jwt' && value === undefined) throw fail('jwks', 'is required with private_key_jwt');
    return value;
  });
  const idTokenSigningAlg = part(() => {
    const value = json['idTokenSigningAlg'] ?? undefined;
    if (value !== undefined && (typeof value !== 'string' || !OIDC_SIGNING_ALGORITHMS.includes(value))) throw fail('idTokenSigningAlg', `must be one of ${OIDC_SIGNING_ALGORITHMS.join(', ')}`);
    return value;
  });
  const subjectType = part(() => {
    const value = json['subjectType'] ?? undefined;
    if (value === undefined || value === '') return undefined;
    const type = typeof value === 'string' ? value.toLowerCase() : value;
    if (!OIDC_SUBJECT_TYPES.includes(type as OidcSubjectType)) throw fail('subjectType', `must be one of ${OIDC_SUBJECT_TYPES.join(', ')}`);
    return type as OidcSubjectType;
  });
  const sectorIdentifierUri = part(() => {
    const value = json['sectorIdentifierUri'] ?? undefined;
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || !URL.canParse(value) || new URL(value).protocol !== 'https:') throw fail('sectorIdentifierUri', 'must be an https URL (its host is the sector of pairwise subjects)');
    return value;
  });
  const userProfileViewType = part(() => {
    const value = json['userProfileViewType'] ?? undefined;
    if (value !== undefined && !USER_PROFILE_VIEW_TYPES.includes(value as UserProfileViewType)) throw fail('userProfileViewType', `must be one of ${USER_PROFILE_VIEW_TYPES.join(', ')}`);
    return value as UserProfileViewType | undefined;
  });
  const flag = (key: string) => part(() => javaBoolean(json[key], false, () => fail(key, 'must be a boolean')));
  const [bypassApprovalPrompt, generateRefreshToken, renewRefreshToken] = [flag('bypassApprovalPrompt'), flag('generateRefreshToken'), flag('renewRefreshToken')];
  throwAll(problems);
  return {
    clientId: clientId!,
    ...(clientSecret !== undefined && { clientSecret }),
    tokenEndpointAuthenticationMethod: tokenEndpointAuthenticationMethod!,
    scopes: scopes!,
    supportedGrantTypes: supportedGrantTypes!,
    supportedResponseTypes: supportedResponseTypes!,
    bypassApprovalPrompt: bypassApprovalPrompt!,
    generateRefreshToken: generateRefreshToken!,
    renewRefreshToken: renewRefreshToken!,
    ...(userProfileViewType !== undefined && { userProfileViewType }),
    ...(jwks !== undefined && { jwks }),
    ...(idTokenSigningAlg !== undefined && { idTokenSigningAlg }),
    ...(subjectType !== undefined && { subjectType }),
    ...(sectorIdentifierUri !== undefined && { sectorIdentifierUri }),
  };
}

/** The client's keys as its class writes them (an OAuth client has no tokenEndpointAuthenticationMethod: its secret says it). */
export function providerClientJson(service: Pick<RegisteredService, 'type'>, client: OidcClientDefinition): Record<string, unknown> {
  return {
    clientId: client.clientId,
    ...(client.clientSecret !== undefined && { clientSecret: client.clientSecret }),
    ...(!isOAuthOnlyClient(service) && { tokenEndpointAuthenticationMethod: client.tokenEndpointAuthenticationMethod }),
    scopes: javaSet(client.scopes),
    supportedGrantTypes: javaSet(client.supportedGrantTypes),
    supportedResponseTypes: javaSet(client.supportedResponseTypes),
    bypassApprovalPrompt: client.bypassApprovalPrompt,
    generateRefreshToken: client.generateRefreshToken,
    renewRefreshToken: client.renewRefreshToken,
    ...(client.userProfileViewType !== undefined && { userProfileViewType: client.userProfileViewType }),
    ...(client.jwks !== undefined && { jwks: client.jwks }),
    ...(client.idTokenSigningAlg !== undefined && { idTokenSigningAlg: client.idTokenSigningAlg }),
    ...(client.subjectType !== undefined && { subjectType: client.subjectType }),
    ...(client.sectorIdentifierUri !== undefined && { sectorIdentifierUri: client.sectorIdentifierUri }),
  };
}

function isJwks(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) && Array.isArray(parsed['keys']);
  } catch {
    return false;
  }
}

/** A boolean as Jackson reads one: also the strings "true" and "false", any case. */
function javaBoolean(value: unknown, fallback: boolean, fail: () => Error): boolean {
  return optionalBoolean(typeof value === 'string' && /^(true|false)$/i.test(value) ? value.toLowerCase() === 'true' : value, fallback, fail);
}
