import type { InvalidServiceDefinitionError, ServiceDefinitionProblem } from '@tessera/core';
import {
  isOAuthOnlyClient,
  isSharedSecretJwks,
  OAUTH_REGISTERED_SERVICE_TYPES,
  OIDC_CLIENT,
  OIDC_CLIENT_AUTH_METHODS,
  OIDC_REGISTERED_SERVICE,
  OIDC_RESPONSE_MODES,
  OIDC_SUBJECT_TYPES,
  oidcClientWarnings,
  USER_PROFILE_VIEW_TYPES,
  type OidcClientAuthMethod,
  type OidcClientDefinition,
  type OidcResponseMode,
  type OidcSubjectType,
  type UserProfileViewType,
} from '@tessera/core/modules/oidc';
import { z } from 'zod';
import { isRecord, type KeyRules, type Unsupported } from '../../services/codecs/cas-service-keys.js';
import { javaSet, stringList } from '../../services/codecs/java-collections.js';
import type { ServiceTypeCodec } from '../../services/codecs/module-service-keys.js';
import { optionalBoolean, partReader, throwAll } from '../../services/codecs/parse-parts.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/** CAS 4's own OAuth callback service, a class of Apereo's OAuth support that is no client. */
const REFUSED_CLASSES: Readonly<Record<string, string>> = {
  OAuthCallbackAuthorizeService:
    "is CAS 4's own OAuth callback service, which tessera does not need: the oidc module serves the OAuth endpoints and registers its login callback itself; remove this definition",
};

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
  'jwtAccessToken',
  'responseMode',
];

/** The keys only an OidcRegisteredService reads. */
const OIDC_ONLY_KEYS: readonly string[] = [
  'tokenEndpointAuthenticationMethod',
  'jwks',
  'idTokenSigningAlg',
  'subjectType',
  'sectorIdentifierUri',
  'signIdToken',
  'encryptIdToken',
  'idTokenEncryptionAlg',
  'idTokenEncryptionEncoding',
  'jwksKeyId',
  'idTokenIssuer',
];

/** OIDC keys of Apereo's with a behaviour tessera does not have, and what it does instead. */
const OIDC_UNSUPPORTED: Readonly<Record<string, Unsupported>> = {
  userInfoSigningAlg: { instead: 'userinfo answers in JSON' },
  userInfoEncryptedResponseAlg: { instead: 'userinfo answers in JSON' },
  userInfoEncryptedResponseEncoding: { instead: 'userinfo answers in JSON' },
};

const ONE_SET_OF_LIFETIMES = "a client's codes and tokens live as long as the oidc.* settings say, the same for every client";

const is = (expected: unknown) => (value: unknown) => value === expected;

/** Keys of Apereo's OAuth class with a behaviour tessera does not have. */
const OAUTH_UNSUPPORTED: Readonly<Record<string, Unsupported>> = {
  jsonFormat: { instead: 'the token endpoint answers in JSON, as CAS 6 and later do', accepted: { when: is(true), as: 'true' } },
  audience: { instead: 'access tokens name no audience', accepted: { when: (value) => stringList(value)?.length === 0, as: 'an empty list' } },
  codeExpirationPolicy: { instead: ONE_SET_OF_LIFETIMES },
  accessTokenExpirationPolicy: { instead: ONE_SET_OF_LIFETIMES },
  refreshTokenExpirationPolicy: { instead: ONE_SET_OF_LIFETIMES },
  deviceTokenExpirationPolicy: { instead: 'tessera has no device flow' },
};

/** The keys of an OidcRegisteredService beside those of every service. */
const OIDC_CLIENT_KEYS: KeyRules = { read: [...OAUTH_CLIENT_KEYS, ...OIDC_ONLY_KEYS], unsupported: { ...OAUTH_UNSUPPORTED, ...OIDC_UNSUPPORTED } };

/** The keys of an OAuthRegisteredService beside those of every service: an OIDC client's own are read only with that class. */
const OAUTH_ONLY_CLIENT_KEYS: KeyRules = { read: OAUTH_CLIENT_KEYS, unsupported: OAUTH_UNSUPPORTED, elsewhere: Object.fromEntries(OIDC_ONLY_KEYS.map((key) => [key, 'OidcRegisteredService'])) };

const OIDC_GRANT_TYPES = ['authorization_code', 'refresh_token', 'implicit', 'client_credentials'];
/** The response types an OIDC client may be registered with: those the provider serves, and discovery advertises. */
export const OIDC_RESPONSE_TYPES: readonly string[] = ['code', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token', 'none'];
/** What the provider's keys may sign with: its current RS256 key, or an EC key of its key set (oidc.keys). */
const OIDC_SIGNING_ALGORITHMS = ['RS256', 'ES256', 'ES384', 'ES512'];
/** How an ID token may be encrypted to the client's public key, and with what content encryption. */
const ID_TOKEN_ENCRYPTION_ALGORITHMS = ['RSA-OAEP-256', 'RSA-OAEP', 'ECDH-ES'];
const ID_TOKEN_ENCRYPTION_ENCODINGS = ['A128CBC-HS256', 'A128GCM', 'A256CBC-HS512', 'A256GCM'];

/** The grant and response types an OAuth client may use here; of Apereo's others, why not (an OIDC client's too). */
/** The grant types every client gets when it names none (Apereo's empty set: no restriction); one that proves who it is also client_credentials. */
const DEFAULT_GRANT_TYPES = ['authorization_code', 'refresh_token'];
const OAUTH_GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'];
const OAUTH_RESPONSE_TYPES = ['code'];
const OAUTH_REFUSED: Readonly<Record<string, string>> = {
  password: "the password grant hands the user's password to the client, and tessera's users type it only in its login form: use authorization_code",
  token: 'the implicit flow puts the access token in the URL the browser goes to: use code',
};

/**
 * The client of an OidcRegisteredService or OAuthRegisteredService. Apereo's defaults: the code flow
 * (refresh tokens only with `generateRefreshToken`, the same one used again unless `renewRefreshToken`),
 * `client_secret_basic` with a secret and `none` (a public client, PKCE required) without. A client that
 * names no scope (none, or Apereo's empty set: no restriction) may ask for every scope the provider
 * serves (an OAuth client never for `openid`); Apereo's empty lists of grant and response types stand
 * for the defaults too.
 */
function parseClient(json: Readonly<Record<string, unknown>>, type: string, fail: Fail): OidcClientDefinition {
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
    // Shorter than 16 characters it is loaded, as Apereo loads it, with a warning (oidcClientWarnings).
    if (value !== undefined && (typeof value !== 'string' || value.length === 0)) throw fail('clientSecret', 'must be a non-empty string; leave it out for a public client');
    return value;
  });
  const secretGiven = json['clientSecret'] !== undefined && json['clientSecret'] !== null;
  // Apereo's jwks holding a secret rather than keys: the client MACs its assertions with it (client_secret_jwt).
  const sharedSecretGiven = !oauthOnly && typeof json['jwks'] === 'string' && isSharedSecret(json['jwks']);
  const tokenEndpointAuthenticationMethod = part(() => {
    // Unsaid, as Apereo takes whatever the client proves itself with: its secret, else its keys (a JWT
    // signed with them, or MACed with the shared secret its jwks holds), else nothing.
    const keysGiven = !oauthOnly && typeof json['jwks'] === 'string' && json['jwks'] !== '';
    const method =
      (oauthOnly ? undefined : json['tokenEndpointAuthenticationMethod']) ?? (secretGiven ? 'client_secret_basic' : keysGiven ? (sharedSecretGiven ? 'client_secret_jwt' : 'private_key_jwt') : 'none');
    if (typeof method === 'string' && /tls_client_auth$/.test(method)) throw fail('tokenEndpointAuthenticationMethod', `${method}: a client certificate (mutual TLS) does not authenticate clients here; use private_key_jwt or a secret`);
    if (typeof method !== 'string' || !OIDC_CLIENT_AUTH_METHODS.includes(method as OidcClientAuthMethod)) {
      throw fail('tokenEndpointAuthenticationMethod', `must be one of ${OIDC_CLIENT_AUTH_METHODS.join(', ')}`);
    }
    const usesSecret = method === 'client_secret_basic' || method === 'client_secret_post' || method === 'client_secret_jwt';
    if (sharedSecretGiven && !secretGiven && method !== 'client_secret_jwt') throw fail('jwks', `holds a shared secret, which proves a client only with client_secret_jwt, not ${method}`);
    if (usesSecret && !secretGiven && !sharedSecretGiven) throw fail('clientSecret', `is required with ${method}`);
    if (!usesSecret && secretGiven) throw fail('clientSecret', `is not used with ${method}: remove it`);
    return method as OidcClientAuthMethod;
  });
  const list = (key: string, fallback: readonly string[], allowed?: readonly string[], refused: Readonly<Record<string, string>> = {}, emptyIsDefault = oauthOnly): string[] => {
    const value = json[key];
    if (value === undefined || value === null) return [...fallback];
    const items = stringList(value);
    if (items?.length === 0 && emptyIsDefault) return [...fallback];
    if (!items || items.length === 0) throw fail(key, 'must be a non-empty list of strings');
    // A type tessera refuses beside ones it serves is kept, and said (oidcClientWarnings): its requests are refused.
    const unknown = allowed === undefined ? undefined : items.find((item) => !allowed.includes(item) && !(Object.hasOwn(refused, item) && items.some((other) => allowed.includes(other))));
    if (unknown !== undefined && Object.hasOwn(refused, unknown)) throw fail(key, `holds ${JSON.stringify(unknown)}, not supported by tessera: ${refused[unknown]}`);
    if (unknown !== undefined) throw fail(key, `holds ${JSON.stringify(unknown)}; known: ${allowed?.join(', ')}`);
    return [...new Set(items)];
  };
  // Apereo's empty set of scopes (or none) restricts nothing: every scope the provider serves.
  const scopes = part(() => {
    const values = list('scopes', [], undefined, {}, true);
    if (oauthOnly && values.includes('openid')) throw fail('scopes', 'holds openid, which an OAuth client never gets: make it an OidcRegisteredService for OpenID Connect');
    return values;
  });
  const supportedGrantTypes = part(() => {
    // None named (or Apereo's empty set) restricts nothing, as in Apereo: a client that proves who it is may also ask a token for itself.
    const defaults = tokenEndpointAuthenticationMethod === 'none' ? DEFAULT_GRANT_TYPES : [...DEFAULT_GRANT_TYPES, 'client_credentials'];
    const grants = list('supportedGrantTypes', defaults, oauthOnly ? OAUTH_GRANT_TYPES : OIDC_GRANT_TYPES, OAUTH_REFUSED, true);
    // A token for the client itself: only a client that proves who it is may have one.
    if (grants.includes('client_credentials') && tokenEndpointAuthenticationMethod === 'none') {
      throw fail('supportedGrantTypes', 'holds client_credentials, which a public client cannot use: it has no clientSecret or keys to prove itself with');
    }
    return grants;
  });
  const supportedResponseTypes = part(() =>
    oauthOnly ? list('supportedResponseTypes', OAUTH_RESPONSE_TYPES, OAUTH_RESPONSE_TYPES, OAUTH_REFUSED) : list('supportedResponseTypes', ['code'], OIDC_RESPONSE_TYPES, OAUTH_REFUSED),
  );
  const jwks = part(() => {
    const value = json['jwks'] ?? undefined;
    if (typeof value === 'string' && isSpringOrFile(value)) {
      throw fail('jwks', 'names a file (or a Spring expression) of the machine it was written for: write the JWKS as JSON text, or its https URL');
    }
    if (value !== undefined && !(typeof value === 'string' && (value.startsWith('https://') || isJwks(value) || sharedSecretGiven))) {
      throw fail('jwks', 'must be a JWKS as JSON text, an https URL, or a shared secret (no spaces) the client MACs its assertions with');
    }
    if (sharedSecretGiven && secretGiven) throw fail('jwks', 'holds a shared secret beside clientSecret: keep one of them');
    if (tokenEndpointAuthenticationMethod === 'private_key_jwt' && value === undefined) throw fail('jwks', 'is required with private_key_jwt');
    return value;
  });
  const idTokenSigningAlg = part(() => {
    const value = json['idTokenSigningAlg'] ?? undefined;
    if (value !== undefined && (typeof value !== 'string' || !OIDC_SIGNING_ALGORITHMS.includes(value))) throw fail('idTokenSigningAlg', `must be one of ${OIDC_SIGNING_ALGORITHMS.join(', ')}`);
    return value;
  });
  const jwksKeyId = part(() => {
    const value = json['jwksKeyId'] ?? undefined;
    if (value !== undefined && (typeof value !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(value))) throw fail('jwksKeyId', "must be the kid of a key of the provider's key set (oidc.keys)");
    return value;
  });
  const idTokenIssuer = part(() => {
    const value = json['idTokenIssuer'] ?? undefined;
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || !URL.canParse(value)) throw fail('idTokenIssuer', 'must be a URL');
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
  const idTokenEncryption = part(() => {
    const signed = javaBoolean(json['signIdToken'], true, () => fail('signIdToken', 'must be a boolean'));
    if (!signed) throw fail('signIdToken', 'false is not supported by tessera: every ID token is signed with the provider key');
    const encrypted = javaBoolean(json['encryptIdToken'], false, () => fail('encryptIdToken', 'must be a boolean'));
    const alg = json['idTokenEncryptionAlg'] ?? 'RSA-OAEP-256';
    const enc = json['idTokenEncryptionEncoding'] ?? 'A128CBC-HS256';
    if (typeof alg !== 'string' || !ID_TOKEN_ENCRYPTION_ALGORITHMS.includes(alg)) throw fail('idTokenEncryptionAlg', `must be one of ${ID_TOKEN_ENCRYPTION_ALGORITHMS.join(', ')}`);
    if (typeof enc !== 'string' || !ID_TOKEN_ENCRYPTION_ENCODINGS.includes(enc)) throw fail('idTokenEncryptionEncoding', `must be one of ${ID_TOKEN_ENCRYPTION_ENCODINGS.join(', ')}`);
    if (!encrypted) return undefined;
    if (sharedSecretGiven) throw fail('jwks', "holds a shared secret, not the client's public key an ID token is encrypted to (encryptIdToken)");
    if (json['jwks'] === undefined || json['jwks'] === null) throw fail('jwks', "is required with encryptIdToken: the client's public key the ID token is encrypted to");
    return { alg, enc };
  });
  const userProfileViewType = part(() => {
    const value = json['userProfileViewType'] ?? undefined;
    if (value !== undefined && !USER_PROFILE_VIEW_TYPES.includes(value as UserProfileViewType)) throw fail('userProfileViewType', `must be one of ${USER_PROFILE_VIEW_TYPES.join(', ')}`);
    return value as UserProfileViewType | undefined;
  });
  const ownTokenKeys = part(() => ownAccessTokenKeys(json['properties'], fail));
  const responseMode = part(() => {
    const value = json['responseMode'] ?? undefined;
    if (value !== undefined && !OIDC_RESPONSE_MODES.includes(value as OidcResponseMode)) throw fail('responseMode', `must be one of ${OIDC_RESPONSE_MODES.join(', ')}`);
    return value === 'query' ? undefined : (value as OidcResponseMode | undefined);
  });
  const flag = (key: string) => part(() => javaBoolean(json[key], false, () => fail(key, 'must be a boolean')));
  const [bypassApprovalPrompt, generateRefreshToken, renewRefreshToken, jwtAccessToken] = [flag('bypassApprovalPrompt'), flag('generateRefreshToken'), flag('renewRefreshToken'), flag('jwtAccessToken')];
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
    ...(jwksKeyId !== undefined && { jwksKeyId }),
    ...(idTokenIssuer !== undefined && { idTokenIssuer }),
    ...(jwtAccessToken === true && { jwtAccessToken }),
    ...(ownTokenKeys?.signing !== undefined && { accessTokenSigningKey: ownTokenKeys.signing }),
    ...(ownTokenKeys?.encryption !== undefined && { accessTokenEncryptionKey: ownTokenKeys.encryption }),
    ...(responseMode !== undefined && { responseMode }),
    ...(idTokenEncryption !== undefined && { idTokenEncryption }),
    ...(subjectType !== undefined && { subjectType }),
    ...(sectorIdentifierUri !== undefined && { sectorIdentifierUri }),
  };
}

/** The client's keys as its class writes them (an OAuth client has no tokenEndpointAuthenticationMethod: its secret says it). */
function clientJson(client: OidcClientDefinition, oauthOnly: boolean): Record<string, unknown> {
  return {
    clientId: client.clientId,
    ...(client.clientSecret !== undefined && { clientSecret: client.clientSecret }),
    ...(!oauthOnly && { tokenEndpointAuthenticationMethod: client.tokenEndpointAuthenticationMethod }),
    scopes: javaSet(client.scopes),
    supportedGrantTypes: javaSet(client.supportedGrantTypes),
    supportedResponseTypes: javaSet(client.supportedResponseTypes),
    bypassApprovalPrompt: client.bypassApprovalPrompt,
    generateRefreshToken: client.generateRefreshToken,
    renewRefreshToken: client.renewRefreshToken,
    ...(client.userProfileViewType !== undefined && { userProfileViewType: client.userProfileViewType }),
    ...(client.jwks !== undefined && { jwks: client.jwks }),
    ...(client.idTokenSigningAlg !== undefined && { idTokenSigningAlg: client.idTokenSigningAlg }),
    ...(client.jwksKeyId !== undefined && { jwksKeyId: client.jwksKeyId }),
    ...(client.idTokenIssuer !== undefined && { idTokenIssuer: client.idTokenIssuer }),
    ...(client.subjectType !== undefined && { subjectType: client.subjectType }),
    ...(client.sectorIdentifierUri !== undefined && { sectorIdentifierUri: client.sectorIdentifierUri }),
    ...(client.jwtAccessToken && { jwtAccessToken: true }),
    ...(client.responseMode !== undefined && { responseMode: client.responseMode }),
    ...(client.idTokenEncryption !== undefined && { encryptIdToken: true, idTokenEncryptionAlg: client.idTokenEncryption.alg, idTokenEncryptionEncoding: client.idTokenEncryption.enc }),
  };
}

/** Apereo's Spring expression reading an environment variable, `${#env['NAME']}`: the one tessera reads. */
const ENVIRONMENT_VARIABLE = /^\$\{#env\['([A-Za-z_][A-Za-z0-9_]*)'\]\}$/;

/**
 * Apereo's properties giving a client's JWT access tokens keys of its own, each a JWK's `k` (base64url)
 * written, or `${#env['NAME']}`, the environment variable holding it when the provider starts.
 * `accessTokenAsJwtSigningKey` (unless `accessTokenAsJwtSigningEnabled` is false): the tokens are MACed
 * (HS512) with it instead of signed with the provider's key. `accessTokenAsJwtEncryptionKey` (unless
 * `accessTokenAsJwtEncryptionEnabled` is false): they are then encrypted with it (`dir`, its length
 * choosing A128CBC-HS256 or A256CBC-HS512). Signing off is refused unless they are encrypted: a token
 * neither signed nor encrypted would be anyone's to write. Another cipher strategy is refused.
 */
function ownAccessTokenKeys(properties: unknown, fail: Fail): { signing?: string; encryption?: string } | undefined {
  if (!isRecord(properties)) return undefined;
  const valueOf = (name: string): string | undefined => {
    const property = properties[name];
    const values = isRecord(property) ? stringList(property['values']) : undefined;
    return values?.[0];
  };
  if (properties['accessTokenAsJwtCipherStrategyType'] !== undefined) {
    throw fail('properties.accessTokenAsJwtCipherStrategyType', 'is not supported by tessera: an own key MACs a JWT access token first, then an own encryption key encrypts it; remove it');
  }
  const keyOf = (name: string, enabled: string, minimum: string): string | undefined => {
    if (properties[name] === undefined || valueOf(enabled)?.toLowerCase() === 'false') return undefined;
    const key = valueOf(name);
    if (key === undefined || (key.includes('${') && !ENVIRONMENT_VARIABLE.test(key)) || (!key.includes('${') && !/^[A-Za-z0-9_-]{43,}$/.test(key))) {
      throw fail(`properties.${name}`, `must be a key of at least ${minimum} as base64url (a JWK's k), or \${#env['NAME']}, the environment variable holding one`);
    }
    return key;
  };
  const signing = keyOf('accessTokenAsJwtSigningKey', 'accessTokenAsJwtSigningEnabled', '256 bits');
  const encryption = keyOf('accessTokenAsJwtEncryptionKey', 'accessTokenAsJwtEncryptionEnabled', '256 bits (512 for A256CBC-HS512)');
  if (valueOf('accessTokenAsJwtEncryptionEnabled')?.toLowerCase() === 'true' && encryption === undefined) {
    throw fail('properties.accessTokenAsJwtEncryptionEnabled', "is true without accessTokenAsJwtEncryptionKey: tessera encrypts a client's JWT access tokens only with a key of its own");
  }
  if (valueOf('accessTokenAsJwtSigningEnabled')?.toLowerCase() === 'false' && encryption === undefined) {
    throw fail('properties.accessTokenAsJwtSigningEnabled', 'is false without an accessTokenAsJwtEncryptionKey: a JWT access token neither signed nor encrypted is refused');
  }
  return { ...(signing !== undefined && { signing }), ...(encryption !== undefined && { encryption }) };
}

/**
 * The key of a client's accessTokenAsJwtSigningKey or accessTokenAsJwtEncryptionKey: written, or read
 * from the environment variable it names; undefined when that variable is unset or holds no key of at least 256 bits.
 */
export function accessTokenSigningKeyOf(written: string, environment: Readonly<Record<string, string | undefined>>): Buffer | undefined {
  const name = ENVIRONMENT_VARIABLE.exec(written)?.[1];
  const value = name === undefined ? written : environment[name];
  if (value === undefined || !/^[A-Za-z0-9_-]{43,}$/.test(value)) return undefined;
  return Buffer.from(value, 'base64url');
}

/** Apereo's secret in place of a JWKS: printable, no spaces, neither JSON, nor a URL, nor a file or expression. */
function isSharedSecret(value: string): boolean {
  return /^[\x21-\x7e]+$/.test(value) && isSharedSecretJwks(value) && !/^[a-z][a-z0-9+.-]*:/i.test(value) && !isSpringOrFile(value);
}

/** A Spring expression or a file of another machine, which tessera does not read. */
function isSpringOrFile(value: string): boolean {
  return value.includes('${') || value.startsWith('file:') || value.startsWith('classpath:');
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

/** The client keys the registration API documents (POST /v1/services), with their classes. */
const DOCUMENTED: Readonly<Record<string, z.ZodType>> = {
  clientId: z.string().meta({ description: 'With OidcRegisteredService or OAuthRegisteredService (the oidc module): the client id, up to 255 printable ASCII characters.' }),
  clientSecret: z.string().nullable().meta({ description: 'With OidcRegisteredService or OAuthRegisteredService: the client secret; left out for a public client or one that proves itself with its keys.' }),
  scopes: z.unknown().meta({ description: 'With OidcRegisteredService or OAuthRegisteredService: the scopes the client may ask for, a list of strings; none, every scope served.' }),
  supportedGrantTypes: z.unknown().meta({ description: 'With OidcRegisteredService or OAuthRegisteredService: the grant types the client may use, a list of strings.' }),
  supportedResponseTypes: z.unknown().meta({ description: 'With OidcRegisteredService or OAuthRegisteredService: the response types the client may ask for, a list of strings.' }),
};

/** Apereo's OidcRegisteredService: an OpenID Connect client of the provider. */
export const oidcClientType: ServiceTypeCodec<OidcClientDefinition> = {
  classes: [OIDC_REGISTERED_SERVICE],
  matchedByServiceUrl: false,
  data: OIDC_CLIENT,
  keys: OIDC_CLIENT_KEYS,
  refusedClasses: REFUSED_CLASSES,
  // OpenID Connect is OAuth 2.0 with an ID token: its clients speak both.
  protocols: ['OAUTH20', 'OIDC'],
  documented: DOCUMENTED,
  parse: (json, fail) => parseClient(json, OIDC_REGISTERED_SERVICE, fail),
  render: (client) => clientJson(client, false),
  warnings: oidcClientWarnings,
};

/** Apereo's OAuthRegisteredService (also in CAS 4's org.jasig package): a plain OAuth 2.0 client of the provider, which never gets `openid`. */
export const oauthClientType: ServiceTypeCodec<OidcClientDefinition> = {
  classes: OAUTH_REGISTERED_SERVICE_TYPES,
  matchedByServiceUrl: false,
  data: OIDC_CLIENT,
  keys: OAUTH_ONLY_CLIENT_KEYS,
  refusedClasses: REFUSED_CLASSES,
  protocols: ['OAUTH20'],
  documented: DOCUMENTED,
  parse: (json, fail) => parseClient(json, OAUTH_REGISTERED_SERVICE_TYPES[0]!, fail),
  render: (client) => clientJson(client, true),
  warnings: oidcClientWarnings,
};
