import type { RegisteredService } from '../../domain/registry/registered-service.js';
import { serviceDataKey } from '../../domain/registry/service-data.js';

/**
 * The clients of the provider, as the oidc module brings them: Apereo's OidcRegisteredService, and
 * OAuthRegisteredService, a plain OAuth 2.0 client, which OidcRegisteredService extends with OpenID
 * Connect's keys. Their serviceId is the pattern of their redirect URIs; the provider finds them by
 * their client id, and no CAS service URL finds them.
 */
export const OIDC_REGISTERED_SERVICE = 'org.apereo.cas.services.OidcRegisteredService';
export const OAUTH_REGISTERED_SERVICE = 'org.apereo.cas.support.oauth.services.OAuthRegisteredService';
/** The OAuth 2.0 client class under its names: CAS 4 wrote it in the org.jasig package. */
export const OAUTH_REGISTERED_SERVICE_TYPES: readonly string[] = [OAUTH_REGISTERED_SERVICE, 'org.jasig.cas.support.oauth.services.OAuthRegisteredService'];

/** A plain OAuth 2.0 client (OAuthRegisteredService): it gets no `openid` scope, so no ID token and no userinfo. */
export function isOAuthOnlyClient(service: Pick<RegisteredService, 'type'>): boolean {
  return OAUTH_REGISTERED_SERVICE_TYPES.includes(service.type);
}

/** How the OAuth profile endpoint lays out the attributes: under `attributes` (NESTED), or beside `id` (FLAT). */
export const USER_PROFILE_VIEW_TYPES = ['NESTED', 'FLAT'] as const;
export type UserProfileViewType = (typeof USER_PROFILE_VIEW_TYPES)[number];

/** How an OpenID Connect client proves who it is at the token endpoint. */
export const OIDC_CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'client_secret_jwt', 'private_key_jwt', 'none'] as const;
export type OidcClientAuthMethod = (typeof OIDC_CLIENT_AUTH_METHODS)[number];

/** The client part of an OidcRegisteredService or OAuthRegisteredService, in Apereo's terms. */
export interface OidcClientDefinition {
  readonly clientId: string;
  /** Absent for a public client (`none`) and for `private_key_jwt`. */
  readonly clientSecret?: string;
  /** An OAuthRegisteredService has no such key: `client_secret_basic` with a secret (either form is taken), `none` without. */
  readonly tokenEndpointAuthenticationMethod: OidcClientAuthMethod;
  /** The scopes the client may ask for, as written; empty when it names none: every scope the provider serves (an OAuth client's but `openid`). */
  readonly scopes: readonly string[];
  readonly supportedGrantTypes: readonly string[];
  readonly supportedResponseTypes: readonly string[];
  /** No consent page: the user's grant is taken as given. */
  readonly bypassApprovalPrompt: boolean;
  /**
   * Whether the client gets refresh tokens (Apereo's default: no). Without, it gets none even when it
   * asks for `offline_access`, and the refresh_token grant is refused to it.
   */
  readonly generateRefreshToken: boolean;
  /**
   * Whether a refresh grant hands out a new refresh token and ends the one it used (Apereo's default:
   * no, the refresh token is used again until it expires).
   */
  readonly renewRefreshToken: boolean;
  /** The layout of the OAuth profile (`/oauth2.0/profile`); absent, NESTED. */
  readonly userProfileViewType?: UserProfileViewType;
  /**
   * The client's public keys (private_key_jwt): a JWKS as JSON text, or the https URL it is published
   * at. Anything else is Apereo's shared secret in place of keys (isSharedSecretJwks): the client proves
   * itself with a JWT MACed with it (client_secret_jwt).
   */
  readonly jwks?: string;
  readonly idTokenSigningAlg?: string;
  /**
   * Apereo's `jwksKeyId`: the `kid` of the provider's key (of oidc.keys) its ID tokens and JWT access
   * tokens are signed with; absent, the current key of the ID token's algorithm.
   */
  readonly jwksKeyId?: string;
  /**
   * Apereo's `idTokenIssuer`, kept as written and not used: every ID token names the provider's one
   * issuer, the one discovery publishes, which the client's library checks (oidcClientWarnings says so).
   */
  readonly idTokenIssuer?: string;
  /** `pairwise`: the client knows each user by a subject of its sector alone (a pairwise username provider's); absent, `public`. */
  readonly subjectType?: OidcSubjectType;
  /** The URL whose host is the client's sector for pairwise subjects; absent, the host of its redirect URIs. */
  readonly sectorIdentifierUri?: string;
  /**
   * Apereo's `jwtAccessToken`, kept only when true: the client's access tokens are JWTs (RFC 9068,
   * `typ: at+jwt`) signed with the provider's key, its `aud` the client id, for its resource servers to
   * verify against the JWKS.
   */
  readonly jwtAccessToken?: true;
  /**
   * Apereo's `accessTokenAsJwtSigningKey` property, as written: the client's JWT access tokens are
   * MACed (HS512) with this key (a JWK's `k`, base64url) instead of signed with the provider's, for
   * APIs that share it; `${#env['NAME']}` names the environment variable holding it.
   */
  readonly accessTokenSigningKey?: string;
  /**
   * Apereo's `accessTokenAsJwtEncryptionKey` property, as written (or `${#env['NAME']}`): the client's
   * JWT access tokens are then encrypted with it (`dir`; A128CBC-HS256 with a 256-bit key,
   * A256CBC-HS512 with a 512-bit one), signed first only when it has a signing key of its own too.
   */
  readonly accessTokenEncryptionKey?: string;
  /**
   * Apereo's `responseMode`, kept only when not `query`: how an authorization answers the client when
   * its request names no `response_mode` (`fragment`, `form_post`, or a JWT response mode, JARM).
   */
  readonly responseMode?: OidcResponseMode;
  /**
   * Apereo's `encryptIdToken` with `idTokenEncryptionAlg` and `idTokenEncryptionEncoding`, kept only
   * when on: the client's ID tokens are signed, then encrypted (JWE) to the public key of its `jwks`.
   */
  readonly idTokenEncryption?: { readonly alg: string; readonly enc: string };
}

/** Whether a client's `jwks` is Apereo's shared secret (HMAC) rather than a JWKS or its URL. */
export function isSharedSecretJwks(jwks: string): boolean {
  return !jwks.startsWith('https://') && !jwks.trimStart().startsWith('{');
}

/** The response modes a client may register: OAuth 2.0's, and JARM's (the answer as a JWT signed with the provider's key). */
export const OIDC_RESPONSE_MODES = ['query', 'fragment', 'form_post', 'query.jwt', 'fragment.jwt', 'form_post.jwt', 'jwt'] as const;
export type OidcResponseMode = (typeof OIDC_RESPONSE_MODES)[number];

export const OIDC_SUBJECT_TYPES = ['public', 'pairwise'] as const;
export type OidcSubjectType = (typeof OIDC_SUBJECT_TYPES)[number];

/** The client on its service (`RegisteredService.moduleData`): what the module's codec part reads from an OidcRegisteredService or OAuthRegisteredService. */
export const OIDC_CLIENT = serviceDataKey<OidcClientDefinition>('oidcClient');
