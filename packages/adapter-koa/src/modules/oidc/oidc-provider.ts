import type { EventEmitter } from 'node:events';
import {
  hasExpired,
  type AttributeMap,
  type Authentication,
  type CasCore,
  type RequestOrigin,
  type Clock,
  type EventSink,
  type RecordStore,
  type RecordStores,
  type RegisteredService,
  servicePattern,
  type ServiceRegistry,
  type TicketGrantingTicket,
  type TicketStore,
} from '@tessera/core';
import {
  claimsOf,
  claimsReleasePolicy,
  isOAuthOnlyClient,
  isSharedSecretJwks,
  OIDC_CLIENT,
  oidcSigningAlgorithms,
  STANDARD_SCOPE_CLAIMS,
  type OidcClientDefinition,
  type OidcRefusedEvent,
  type OidcKeySet,
  type OidcSigningKey,
  type UserProfileViewType,
} from '@tessera/core/modules/oidc';
import type { Context } from 'koa';
import type {
  Adapter,
  AdapterPayload,
  ClientMetadata,
  Configuration,
  EncryptionAlgValues,
  EncryptionEncValues,
  KoaContextWithOIDC,
  ResponseType,
  Account,
  AccountClaims,
  SigningAlgorithmWithNone,
  default as ProviderInstance,
} from 'oidc-provider';
import { reportEscapedError, reportServerError } from '../../errors/report.js';
import { handedOverRequestOrigin, requestOrigin } from '../../request/request-origin.js';
import { isLockRefusal } from './client-authentication.js';
import { accessTokenSigningKeyOf, OIDC_RESPONSE_TYPES, readsEnvironment } from './client-codec.js';
import type { ProviderLibrary } from './provider-library.js';
import type { OidcPages } from './oidc-pages.js';
import { sendPage } from '../../pages/send-page.js';
import { PendingInteractions } from './pending-interactions.js';
import { RecordAdapter } from './record-adapter.js';

/** What the provider is built on: tessera's registry, tickets and record stores, and the module's settings. */
export interface OidcProviderDependencies {
  /** node-oidc-provider, loaded by the module when it is on. */
  readonly library: ProviderLibrary;
  /** `server.publicUrl` + `server.basePath` + `/oidc`: every URL the provider publishes or redirects to is built on it. */
  readonly issuer: string;
  /** `server.basePath` without its trailing slashes (`''` for the root): the path of the provider's session cookie. */
  readonly basePath: string;
  readonly keys: OidcKeySet;
  readonly registry: ServiceRegistry;
  /**
   * tessera's use cases, asked at the time of a request: the relying-party path decides whether a session
   * reaches a client and what the client is told of its user. (They are told of this provider's logouts,
   * so they are built after it.)
   */
  readonly core: () => CasCore;
  /** Whether a page of the browser login (a consent to attribute release) holds a ticket for this client back: then no authorization is silent. */
  readonly ticketStepsNeeded: (ticket: { readonly authentication: Authentication; readonly service: RegisteredService; readonly url: string }) => Promise<boolean>;
  readonly tickets: TicketStore;
  readonly records: RecordStores;
  readonly clock: Clock;
  readonly pages: OidcPages;
  /** Whether a request came over TLS may be read from a proxy's X-Forwarded-Proto (its cookies then Secure, as the login module's). */
  readonly trustProxy: boolean;
  /** Scopes of the operator's own, each the claims (attribute names) it releases. */
  readonly customScopes: Readonly<Record<string, readonly string[]>>;
  /** Claim → the attribute it takes its values from, for every client (Apereo's claims-map). */
  readonly claimsMap: Readonly<Record<string, string>>;
  readonly lifetimes: {
    readonly accessTokenSeconds: number;
    readonly idTokenSeconds: number;
    readonly refreshTokenSeconds: number;
    readonly codeSeconds: number;
    /** How long an authorization request is kept while its browser logs in. */
    readonly interactionSeconds: number;
  };
  /** The longest a tessera login session (TGT) lives (`tickets.tgt.maxTimeToLiveSeconds`): a provider session on it lives no longer. */
  readonly loginSessionSeconds: number;
  /** The most interactions one client address may have pending; past it, its earliest are dropped. */
  readonly interactionsPerAddress: number;
  /**
   * Whether the provider's outgoing requests (back-channel logout, a client's jwks_uri) may reach
   * loopback and private addresses, which its protection against request forgery refuses otherwise.
   */
  readonly fetchPrivateAddresses: boolean;
  /** The TGT the browser's login session cookie names (the login module's TGC), if it sends one. */
  readonly browserSession: (ctx: Context) => Promise<string | undefined>;
  /** Told when an RP-initiated logout ended a provider session (the user chose to log out of everything): ends the tessera login session it stood for (`tgtId`), and clears the browser's cookie of it. */
  readonly endLoginSession: (ctx: Context, tgtId: string) => Promise<void>;
  /** Where the provider's unexpected failures are reported (`server.error`). */
  readonly events: EventSink;
  /** The process's environment variables: a client's `${#env['NAME']}` key is read there. */
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/** The provider and what the interaction routes need of it. */
export interface TesseraOidcProvider {
  readonly provider: ProviderInstance;
  /** The library's error classes, to tell its refusals from failures. */
  readonly errors: ProviderLibrary['errors'];
  /** The TGT a provider session stands for (written when a login through tessera's /login finished the interaction), grouped by the TGT. */
  readonly sessionTickets: RecordStore<string>;
  /** What an access token stands for, for the OAuth profile endpoint: `missing` when there is no such token, or it has expired, or its login session has ended. */
  profileOf(accessToken: string): Promise<AccessTokenProfile | 'missing'>;
  /** Who the user of a login session is to a client: its username provider's answer, as every token names the user; undefined when the client is gone. */
  subjectFor(clientId: string, tgt: TicketGrantingTicket): Promise<string | undefined>;
  /**
   * A tessera login session ended (a CAS logout, REST's DELETE, an RP-initiated logout): its provider
   * sessions end too, their grants are revoked (but those of offline access) and every client that
   * registered a back-channel logout URI is sent a logout token.
   */
  endSessionsOf(tgtId: string): Promise<void>;
}

/** Who and what an access token stands for, as Apereo's OAuth profile tells it. */
export interface AccessTokenProfile {
  /** The user name the client's service sees (its username provider's; by default the principal id). */
  readonly id: string;
  readonly clientId: string;
  /** The redirect URI of the authorization the token comes from. */
  readonly redirectUri?: string;
  /** The principal's attributes the client's release policy lets through. */
  readonly attributes: AttributeMap;
  readonly viewType: UserProfileViewType;
}

/** What introspection found of a token, as far as its release goes. */
interface IntrospectedToken {
  readonly accountId?: string | undefined;
  readonly clientId?: string | undefined;
  readonly sessionUid?: string | undefined;
  readonly scope?: string | undefined;
}

/** What the provider keeps of a session (its Session model's payload), as far as a logout reads it. */
interface SessionPayload {
  readonly jti?: string;
  readonly accountId?: string;
  readonly authorizations?: Readonly<Record<string, { readonly sid?: string; readonly grantId?: string; readonly persistsLogout?: boolean }>>;
}

/**
 * Where a request to the provider comes from, for its events and the access rules it is decided by: the
 * address and request id tessera's app found when it handed the request over (its trusted-proxy rule,
 * not the provider's own Koa, which would take the leftmost X-Forwarded-For), its User-Agent (which a
 * client's HTTP request rules read, as /login's do), and the provider's route.
 */
function originOf(ctx: KoaContextWithOIDC | undefined): RequestOrigin | undefined {
  if (ctx === undefined) return undefined;
  return { ...(handedOverRequestOrigin(ctx.req) ?? requestOrigin(ctx)), endpoint: `${ctx.method} oidc:${ctx.oidc?.route ?? '(no route)'}` };
}

/**
 * The client address of a request to the provider: as tessera's app found it for one the app handed
 * over, else the provider's own, which it finds by the same trusted-proxy rule (the direct lane's).
 */
function clientAddressOf(ctx: Context): string {
  return handedOverRequestOrigin(ctx.req)?.clientAddress ?? ctx.ip;
}

/** The OAuth error code of a refusal (the library's errors carry it), else `server_error`. */
function errorCodeOf(error: unknown): string {
  const code = (error as { error?: unknown } | undefined)?.error;
  return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : 'server_error';
}

/**
 * The provider's own events as tessera's (audit trail, metrics): codes handed out, tokens issued,
 * refusals of authorization, token, introspection and revocation requests by their OAuth error (but a
 * locked client's, whose lock was written once), logouts and back-channel deliveries. Never a code or
 * token value.
 */
function reportProviderEvents(provider: ProviderInstance, events: EventSink): void {
  const clientOf = (ctx: KoaContextWithOIDC | undefined) => ctx?.oidc?.client?.clientId;
  const principalOf = (ctx: KoaContextWithOIDC) => ctx.oidc?.session?.accountId ?? ctx.oidc?.account?.accountId;
  provider.on('authorization.success', (ctx: KoaContextWithOIDC) => {
    const client = clientOf(ctx);
    const principal = principalOf(ctx);
    if (client !== undefined) events.emit({ type: 'oidc.authorized', client, ...(principal !== undefined && { principal }) }, originOf(ctx));
  });
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const client = clientOf(ctx);
    const principal = principalOf(ctx);
    const grantType = ctx.oidc?.params?.['grant_type'];
    if (client !== undefined) {
      events.emit({ type: 'oidc.token.issued', client, ...(principal !== undefined && { principal }), ...(typeof grantType === 'string' && { grantType: errorCodeOf({ error: grantType }) }) }, originOf(ctx));
    }
  });
  const refused = (request: OidcRefusedEvent['request']) => (ctx: KoaContextWithOIDC, error: unknown) => {
    if (isLockRefusal(error)) return;
    const client = clientOf(ctx);
    events.emit({ type: 'oidc.refused', request, error: errorCodeOf(error), ...(client !== undefined && { client }) }, originOf(ctx));
  };
  provider.on('authorization.error', refused('authorization'));
  provider.on('grant.error', refused('token'));
  provider.on('introspection.error', refused('introspection'));
  provider.on('revocation.error', refused('revocation'));
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
    const client = clientOf(ctx);
    events.emit({ type: 'oidc.logout', ...(client !== undefined && { client }) }, originOf(ctx));
  });
  provider.on('backchannel.success', (ctx: KoaContextWithOIDC | undefined, client: { clientId: string }, accountId: string) => {
    events.emit({ type: 'oidc.backchannel.delivered', client: client.clientId, principal: accountId }, originOf(ctx));
  });
  provider.on('backchannel.error', (ctx: KoaContextWithOIDC | undefined, _error: unknown, client: { clientId: string }, accountId: string) => {
    events.emit({ type: 'oidc.backchannel.failed', client: client.clientId, principal: accountId }, originOf(ctx));
  });
}

/** Fetch options without the dispatcher the library passes (its guard against private addresses). */
function withoutDispatcher(init: RequestInit | undefined): RequestInit | undefined {
  if (init === undefined) return undefined;
  const { dispatcher: _guard, ...rest } = init as RequestInit & { dispatcher?: unknown };
  return rest;
}

/** Claims the library writes itself, by its own rules: `sub` (the client's subject), and what the login proved and when. */
const LIBRARY_CLAIMS = new Set(['sub', 'acr', 'amr', 'auth_time']);

/**
 * The claims an ID token or userinfo answer holds are those the account's claims() computed for the
 * scopes granted (the client's scope release policies, as Apereo's), beside what the library's own
 * mask keeps of its own claims (`sub`, `acr`, `amr`, `auth_time`): that mask knows only the scopes and
 * claims of its configuration, and would drop a claim of a client's own (`organization`, a custom
 * scope's). Claims the user rejected are left out.
 */
function releaseClaimsAsComputed(provider: ProviderInstance): void {
  // The library's own Claims, its methods wrapped in place: a subclass would add a derived constructor
  // (and a set of refused claims) to every userinfo answer and ID token.
  const claimsPrototype = provider.Claims.prototype as unknown as ClaimsInternals;
  const { rejected, result } = claimsPrototype;
  claimsPrototype.rejected = function rejectedAndRefused(this: ClaimsInternals, value: readonly string[] = []): void {
    rejected.call(this, value);
    for (const claim of value) if (claim !== 'sub') (this[REFUSED_CLAIMS] ??= new Set()).add(claim);
  };
  // No async frame: asked on every userinfo and ID token.
  claimsPrototype.result = function resultAsComputed(this: ClaimsInternals): Promise<Record<string, unknown>> {
    return result.call(this).then((kept) => {
      const released: Record<string, unknown> = { ...kept };
      const { available } = this;
      const refused = this[REFUSED_CLAIMS];
      for (const claim of Object.keys(available)) {
        const value = available[claim];
        if (value !== undefined && !LIBRARY_CLAIMS.has(claim) && refused?.has(claim) !== true) released[claim] = value;
      }
      return released;
    });
  };
}

/** Where a Claims instance keeps the claims the user rejected (the library keeps only its filter). */
const REFUSED_CLAIMS = Symbol('claims the user rejected');

/** What releaseClaimsAsComputed reads and wraps of the library's Claims. */
interface ClaimsInternals {
  readonly available: Record<string, unknown>;
  [REFUSED_CLAIMS]?: Set<string>;
  rejected: (this: ClaimsInternals, value?: readonly string[]) => void;
  result: (this: ClaimsInternals) => Promise<Record<string, unknown>>;
}

/**
 * A client's own token (client_credentials) only while its registered service may be used now (its
 * time window): the library asks nothing more of the client than its grant types before it stores one.
 */
function issueClientTokensOnlyWhileUsable(provider: ProviderInstance, usable: (clientId: string) => Promise<boolean>, errors: ProviderLibrary['errors']): void {
  const LibraryClientCredentials = provider.ClientCredentials;
  // Named as the library's model: its kind, storage and ttl go by the class name.
  class ClientCredentials extends LibraryClientCredentials {
    override async save(): Promise<string> {
      if (this.clientId === undefined || !(await usable(this.clientId))) throw new errors.UnauthorizedClient('the client may not be used now');
      return super.save();
    }
  }
  Object.defineProperty(provider, 'ClientCredentials', { value: ClientCredentials });
}

/**
 * The library's Client of a client's metadata, found once per metadata object: RegistryClients hands
 * out the same frozen metadata while the client's registered service is unchanged, where the library,
 * for a client an adapter finds, looks up its Client by a SHA-256 of the metadata's JSON on every
 * request. Other metadata (a changed service, a key read from the environment) goes the library's way.
 */
function findClientsOncePerMetadata(provider: ProviderInstance, clients: Adapter): void {
  const LibraryClient = provider.Client;
  const libraryFind = LibraryClient.find.bind(LibraryClient);
  const found = new WeakMap<object, Awaited<ReturnType<typeof libraryFind>>>();
  // No async frame: asked several times per request. Configurable: the client authentication guards wrap it (client-authentication.ts).
  Object.defineProperty(LibraryClient, 'find', {
    configurable: true,
    value: (id: string) => {
      if (typeof id !== 'string' || id === '') return libraryFind(id);
      return clients.find(id).then((metadata) => {
        if (metadata === undefined) return libraryFind(id);
        const kept = found.get(metadata);
        if (kept !== undefined) return kept;
        return libraryFind(id).then((client) => {
          if (client !== undefined) found.set(metadata, client);
          return client;
        });
      });
    },
  });
}

/**
 * Apereo's responseMode: an authorization request of a client that registered one and names no
 * `response_mode` is answered in that mode (the library's default goes by the response type only),
 * when the library first asks which mode it is in.
 */
function answerInRegisteredResponseMode(provider: ProviderInstance): void {
  // The library's own context class (one per provider), its getter wrapped in place: a subclass would add
  // a derived constructor to every request.
  const contextPrototype = provider.OIDCContext.prototype as object;
  const library = Object.getOwnPropertyDescriptor(contextPrototype, 'responseMode');
  if (typeof library?.get !== 'function') throw new Error("node-oidc-provider's request context has no responseMode to default");
  Object.defineProperty(contextPrototype, 'responseMode', {
    configurable: true,
    get(this: { params?: Record<string, unknown>; client?: unknown }) {
      // Written into the request's parameters, as if the client had asked: the library's response
      // modes (JARM's among them) read them there, and a resumed authorization keeps them.
      const registered = registeredResponseMode(this.client as ClientFields | undefined);
      if (this.params !== undefined && this.params['response_mode'] === undefined && registered !== undefined) this.params['response_mode'] = registered;
      const mode: unknown = library.get?.call(this);
      return typeof mode === 'string' ? mode : undefined;
    },
  });
}

/**
 * The paths of the requests tessera's middleware in the provider's app has work for: a resumed
 * authorization (`/auth/<uid>`), RP-initiated logout's confirmation and introspection. The provider's
 * router matches a path in any ASCII case, with or without one trailing slash: each path it routes to
 * one of these holds what this finds, so the others (token, userinfo, JWKS) pass with no async frame of tessera's.
 */
const AROUND_PROVIDER = /^\/auth\/|\/session\/end\/confirm|\/token\/introspection/i;

/** The models whose records a revoked grant takes with it. */
const GRANT_BOUND_MODELS = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest'];

/**
 * How the library refuses a code or refresh token redeemed again (its words for a replay), and one
 * gone before it was consumed (revoked meanwhile): a redemption that loses a race is refused the same.
 * The other models it consumes are of flows that are off (device, CIBA, PAR, pre-authorized codes).
 */
const LOST_REDEMPTIONS: Readonly<Record<string, { readonly replayed: string; readonly gone: string }>> = {
  AuthorizationCode: { replayed: 'authorization code already consumed', gone: 'authorization code not found' },
  RefreshToken: { replayed: 'refresh token already used', gone: 'refresh token not found' },
};

/** How long the link between a provider session and its TGT is kept at most: it is only read while the TGT lives. */
const SESSION_LINK_SECONDS = 14 * 24 * 3600;

/** The scope of an authorization request at `/oauth2.0/authorize` that names none: it stands for no claim. */
export const OAUTH_DEFAULT_SCOPE = 'oauth2';

/**
 * The client a registered service defines, or undefined when it is no enabled OidcRegisteredService or
 * OAuthRegisteredService. `served` are the scopes the provider serves. A client may ask for the scopes
 * it lists that the provider serves (a scope the server does not know is left out, as Apereo leaves
 * out those its discovery does not name), or for every one when it lists none; an OIDC client for
 * `openid` too, listed or not, as Apereo's. An OAuth client may ask for OAUTH_DEFAULT_SCOPE too, and
 * never for `openid`, so it gets no ID token.
 */
export function clientOf(service: RegisteredService, served: readonly string[], keys: readonly OidcSigningKey[], environment: Readonly<Record<string, string | undefined>> = {}): ClientMetadata | undefined {
  const client = OIDC_CLIENT.of(service);
  if (!client || !service.accessStrategy.enabled || clientKeyProblem(client, keys) !== undefined) return undefined;
  // Apereo's accessTokenAsJwtSigningKey: without the key it names (its environment variable unset), no client rather than tokens its APIs refuse.
  const accessTokenKey = client.accessTokenSigningKey === undefined ? undefined : accessTokenSigningKeyOf(client.accessTokenSigningKey, environment);
  if (client.accessTokenSigningKey !== undefined && accessTokenKey === undefined) return undefined;
  const encryptionKey = client.accessTokenEncryptionKey === undefined ? undefined : accessTokenSigningKeyOf(client.accessTokenEncryptionKey, environment);
  if (client.accessTokenEncryptionKey !== undefined && (encryptionKey === undefined || !CONTENT_ENCRYPTION_BY_KEY_BYTES[encryptionKey.length])) return undefined;
  const namedKey = client.jwksKeyId === undefined ? undefined : keys.find((key) => key.kid === client.jwksKeyId);
  // Apereo's jwks holding a shared secret: what the client MACs its assertions with (client_secret_jwt).
  const sharedSecret = client.jwks !== undefined && isSharedSecretJwks(client.jwks) ? client.jwks : undefined;
  const idTokenAlg = client.idTokenSigningAlg ?? namedKey?.alg;
  const literal = literalUrlOf(service.serviceId);
  const oauthOnly = isOAuthOnlyClient(service);
  // As Apereo, an OIDC client may always ask for `openid`; without it, a request is plain OAuth 2.0 (no ID token).
  const written = oauthOnly ? client.scopes : [...new Set(['openid', ...client.scopes])];
  const listed = client.scopes.length === 0 ? served : written.filter((scope) => served.includes(scope));
  const scopes = !oauthOnly ? listed : [...new Set([OAUTH_DEFAULT_SCOPE, ...listed.filter((scope) => scope !== 'openid')])];
  return {
    client_id: client.clientId,
    ...((client.clientSecret ?? sharedSecret) !== undefined && { client_secret: client.clientSecret ?? sharedSecret }),
    client_name: service.name,
    token_endpoint_auth_method: client.tokenEndpointAuthenticationMethod,
    // Apereo's generateRefreshToken, which a client listing offline_access among its scopes has too (as
    // Apereo's service registry listener sets it): without it, no refresh token (offline_access is dropped, the grant refused).
    grant_types: (client.generateRefreshToken || client.scopes.includes('offline_access') ? client.supportedGrantTypes : client.supportedGrantTypes.filter((grant) => grant !== 'refresh_token')).filter((grant) => grant !== 'password'),
    // A client whose grants leave out authorization_code (one of client_credentials only) gets no code.
    // The bare `token` some Apereo clients list beside others is not served (the client codec's warnings say so).
    response_types: client.supportedResponseTypes.filter((type) => type !== 'token' && (!type.split(' ').includes('code') || client.supportedGrantTypes.includes('authorization_code'))) as ResponseType[],
    scope: scopes.join(' '),
    // The provider wants a list; the pattern decides (redirectUriAllowed below). A request without
    // redirect_uri goes to the one URL a literal pattern names, and is refused otherwise.
    redirect_uris: [literal ?? 'https://redirect-uri.invalid/'],
    post_logout_redirect_uris: literal === undefined ? [] : [literal],
    ...(idTokenAlg !== undefined && { id_token_signed_response_alg: idTokenAlg as SigningAlgorithmWithNone }),
    ...(client.idTokenEncryption !== undefined && {
      id_token_encrypted_response_alg: client.idTokenEncryption.alg as EncryptionAlgValues,
      id_token_encrypted_response_enc: client.idTokenEncryption.enc as EncryptionEncValues,
    }),
    ...(client.jwks !== undefined && sharedSecret === undefined && (client.jwks.startsWith('https://') ? { jwks_uri: client.jwks } : { jwks: JSON.parse(client.jwks) as { keys: [] } })),
    ...(service.logoutType === 'BACK_CHANNEL' && service.logoutUrl !== undefined && { backchannel_logout_uri: service.logoutUrl, backchannel_logout_session_required: true }),
    // Who the user is to the client is its username provider's answer (pairwiseIdentifier below); the
    // library asks it only of clients it takes for pairwise ones.
    subject_type: service.usernameProvider === undefined ? 'public' : 'pairwise',
    tessera_service_id: service.serviceId,
    tessera_renew_refresh_token: client.renewRefreshToken,
    tessera_jwt_access_token: client.jwtAccessToken === true,
    ...(client.responseMode !== undefined && { tessera_response_mode: client.responseMode }),
    ...(namedKey !== undefined && { tessera_jwks_key_id: namedKey.kid }),
    ...(accessTokenKey !== undefined && { tessera_access_token_key: accessTokenKey.toString('base64url') }),
    ...(encryptionKey !== undefined && { tessera_access_token_encryption_key: encryptionKey.toString('base64url') }),
  };
}

/**
 * Why the provider's keys cannot sign a client's tokens as its definition says, or undefined: its
 * jwksKeyId names no key of the set, or the previous RS256 key (the library signs an ID token with the
 * first key of its algorithm), or another algorithm than its idTokenSigningAlg; or no key has its
 * idTokenSigningAlg. Such a client is no client (invalid_client), rather than one whose tokens fail.
 */
export function clientKeyProblem(client: Pick<OidcClientDefinition, 'jwksKeyId' | 'idTokenSigningAlg'>, keys: readonly OidcSigningKey[]): string | undefined {
  const alg = client.idTokenSigningAlg;
  if (client.jwksKeyId === undefined) return alg === undefined || keys.some((key) => key.alg === alg) ? undefined : `its idTokenSigningAlg ${alg} has no key in the provider's key set (oidc.keys)`;
  const named = keys.find((key) => key.kid === client.jwksKeyId);
  if (named === undefined) return `its jwksKeyId ${JSON.stringify(client.jwksKeyId)} names no key of the provider's key set (oidc.keys)`;
  if (alg !== undefined && alg !== named.alg) return `its jwksKeyId names a ${named.alg} key, its idTokenSigningAlg is ${alg}`;
  if (keys.find((key) => key.alg === named.alg) !== named) return `its jwksKeyId names the previous ${named.alg} key, which signs no new token: name the current one`;
  return undefined;
}

/** The one URL a serviceId matches, when it is a literal (`^https://app\.example\.org/cb$`); else undefined. */
export function literalUrlOf(serviceId: string): string | undefined {
  const body = serviceId.replace(/^\^/, '').replace(/\$$/, '');
  if (/[*+?()[\]{}|^$]/.test(body.replace(/\\./g, ''))) return undefined;
  const literal = body.replace(/\\(.)/g, '$1');
  try {
    return new URL(literal).href === literal ? literal : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Clients come from the service registry, every read: a service saved on one node is a client on all.
 * A disabled or expired service is no client, as it is no CAS service.
 */
class RegistryClients implements Adapter {
  constructor(
    private readonly registry: ServiceRegistry,
    private readonly served: readonly string[],
    private readonly clock: Clock,
    private readonly keys: readonly OidcSigningKey[],
    private readonly environment: Readonly<Record<string, string | undefined>>,
  ) {}

  /** The client made of each registered service, while the registry hands out that same service (a saved change is a new one). */
  private readonly made = new WeakMap<RegisteredService, { readonly client: ClientMetadata | undefined }>();

  // No async frame of its own: asked on every request of a client.
  find(id: string): Promise<AdapterPayload | undefined> {
    return clientService(this.registry, id).then((service) => {
      if (service === undefined || hasExpired(service, this.clock.now())) return undefined;
      const kept = this.made.get(service);
      if (kept !== undefined) return kept.client;
      const made = { client: deepFrozen(clientOf(service, this.served, this.keys, this.environment)) };
      // A key read from an environment variable is read at each request, so such a client is not kept.
      if (!readsEnvironment(service)) this.made.set(service, made);
      return made.client;
    });
  }

  upsert(): Promise<void> {
    return Promise.reject(new Error('OIDC clients are registered services: save them to the service registry'));
  }
  findByUid(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  consume(): Promise<void> {
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    return Promise.resolve();
  }
  revokeByGrantId(): Promise<void> {
    return Promise.resolve();
  }
}

/** Who the user of a live login session is to a client (releasedTo): worked out only where asked. */
interface ReleasedUser {
  released(): Promise<{ readonly username: string; readonly attributes: AttributeMap }>;
  claims(scope: string | undefined): Promise<AttributeMap>;
  readonly viewType: UserProfileViewType;
  readonly service: RegisteredService;
  readonly tgt: TicketGrantingTicket;
}

/** `value` with every object and array in it frozen: a client handed to the library again and again stays as made. */
function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Each registry listing's services by client id, the first in evaluation order: a registry hands out
 * the same listing until a definition changes (a save or removal makes a new one), so every request
 * between two changes finds its client without scanning the registry.
 */
const clientIndexes = new WeakMap<readonly RegisteredService[], ReadonlyMap<string, RegisteredService>>();

/** The registered service whose client is `clientId`: the first in evaluation order. Asked several times per request: no async frame of its own. */
function clientService(registry: ServiceRegistry, clientId: string): Promise<RegisteredService | undefined> {
  return registry.list().then((services) => clientIndexOf(services).get(clientId));
}

function clientIndexOf(services: readonly RegisteredService[]): ReadonlyMap<string, RegisteredService> {
  let index = clientIndexes.get(services);
  if (index === undefined) {
    const byClient = new Map<string, RegisteredService>();
    for (const service of services) {
      const id = OIDC_CLIENT.of(service)?.clientId;
      if (id !== undefined && !byClient.has(id)) byClient.set(id, service);
    }
    clientIndexes.set(services, (index = byClient));
  }
  return index;
}

type ClientFields = {
  readonly tesseraServiceId?: unknown;
  readonly tessera_service_id?: unknown;
  readonly tesseraRenewRefreshToken?: unknown;
  readonly tessera_renew_refresh_token?: unknown;
  readonly tesseraJwtAccessToken?: unknown;
  readonly tessera_jwt_access_token?: unknown;
  readonly tesseraResponseMode?: unknown;
  readonly tessera_response_mode?: unknown;
  readonly tesseraJwksKeyId?: unknown;
  readonly tessera_jwks_key_id?: unknown;
  readonly tesseraAccessTokenKey?: unknown;
  readonly tessera_access_token_key?: unknown;
  readonly tesseraAccessTokenEncryptionKey?: unknown;
  readonly tessera_access_token_encryption_key?: unknown;
};

/** The content encryption of a client's own encryption key (`dir`), by the key's length in bytes. */
const CONTENT_ENCRYPTION_BY_KEY_BYTES: Readonly<Record<number, 'A128CBC-HS256' | 'A256CBC-HS512'>> = { 32: 'A128CBC-HS256', 64: 'A256CBC-HS512' };

/** The key the client's JWT access tokens are encrypted with (Apereo's accessTokenAsJwtEncryptionKey), when it has one. */
function ownEncryptionKey(client: ClientFields | undefined): Buffer | undefined {
  const key = client?.tesseraAccessTokenEncryptionKey ?? client?.tessera_access_token_encryption_key;
  return typeof key === 'string' ? Buffer.from(key, 'base64url') : undefined;
}

/** The HMAC key of the client's JWT access tokens (Apereo's accessTokenAsJwtSigningKey), when it has one. */
function ownAccessTokenKey(client: ClientFields | undefined): Buffer | undefined {
  const key = client?.tesseraAccessTokenKey ?? client?.tessera_access_token_key;
  return typeof key === 'string' ? Buffer.from(key, 'base64url') : undefined;
}

/** The kid of the provider's key the client's tokens are signed with (Apereo's jwksKeyId), when it names one. */
function namedSigningKey(client: ClientFields | undefined): string | undefined {
  const kid = client?.tesseraJwksKeyId ?? client?.tessera_jwks_key_id;
  return typeof kid === 'string' ? kid : undefined;
}

/** Apereo's responseMode of the client's service, when it registered one. */
function registeredResponseMode(client: ClientFields | undefined): string | undefined {
  const mode = client?.tesseraResponseMode ?? client?.tessera_response_mode;
  return typeof mode === 'string' ? mode : undefined;
}

/** Apereo's jwtAccessToken of the client's service: its access tokens are JWTs. */
function issuesJwtAccessTokens(client: ClientFields | undefined): boolean {
  return (client?.tesseraJwtAccessToken ?? client?.tessera_jwt_access_token) === true;
}

/**
 * The resource indicator (RFC 8707) standing for a JWT client's own APIs: the library issues an access
 * token as a JWT (RFC 9068) only for a resource server, so the client's tokens are for this one, whose
 * audience is the client id, as Apereo's JWT access tokens name it.
 */
export function jwtResourceOf(clientId: string): string {
  return `urn:tessera:oidc:client:${encodeURIComponent(clientId)}`;
}

/** The serviceId a client was made from (its extra metadata, however the provider cased it). */
function serviceIdOf(client: ClientFields): unknown {
  return client.tesseraServiceId ?? client.tessera_service_id;
}

/** Apereo's renewRefreshToken of the client's service: a refresh grant replaces the refresh token it used. */
function renewsRefreshToken(client: ClientFields | undefined): boolean {
  return (client?.tesseraRenewRefreshToken ?? client?.tessera_renew_refresh_token) === true;
}

/**
 * Whether `value` is an absolute URL without fragment that the client's serviceId matches as a whole,
 * both as written and as a browser reads it (the URL the browser is sent to): a pattern may match text
 * whose host a URL parser reads otherwise (`https://evil.example\.example.org/` is evil.example's).
 */
function matchesServiceId(pattern: unknown, value: unknown): boolean {
  if (typeof pattern !== 'string' || typeof value !== 'string') return false;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return false;
  }
  if (parsed.hash !== '' || value.includes('#')) return false;
  const serviceId = servicePattern(pattern);
  return serviceId?.test(value) === true && serviceId.test(parsed.href);
}

/**
 * node-oidc-provider on tessera's parts, its checks on: clients from the registry, storage on the
 * record stores, accounts and claims from the TGT of the login session through the client's release
 * policy, the login itself through tessera's /login (the interaction routes).
 */
export function createOidcProvider(deps: OidcProviderDependencies): TesseraOidcProvider {
  const { registry, tickets, records, clock, pages } = deps;
  const { default: Provider, interactionPolicy } = deps.library;
  const sessionTickets = records.namespace<string>('oidc.session-tgt');
  // The redirect URI of a grant's code, for the OAuth profile of the access tokens its refresh tokens get.
  const grantRedirectUris = records.namespace<string>('oidc.grant-redirect-uri');
  const pendingInteractions = new PendingInteractions(records, deps.interactionsPerAddress, clock);
  // Who a user is to a client whose username provider is not the principal id, as the client's last
  // authorization found it: the library asks for it where the session's attributes are not at hand.
  const subjects = records.namespace<string>('oidc.subject');
  const subjectKey = (clientId: string, accountId: string) => `${encodeURIComponent(clientId)}:${encodeURIComponent(accountId)}`;
  const adapters = new Map<string, Adapter>();
  const adapter = (model: string): Adapter => {
    if (model === 'Client') return clientAdapter;
    let made = adapters.get(model);
    if (!made) {
      const stored = new RecordAdapter(model, records, clock, (grantId) => refuseLostRedemption(model, grantId));
      adapters.set(model, (made = model === 'Interaction' ? pendingInteractions.tracking(stored) : stored));
    }
    return made;
  };

  /** Every record of a grant and the grant itself: its tokens are refused from now on. */
  async function revokeGrant(grantId: string): Promise<void> {
    await Promise.all(GRANT_BOUND_MODELS.map((model) => adapter(model).revokeByGrantId(grantId)));
    await adapter('Grant').destroy(grantId);
  }

  /**
   * A code or refresh token consumed by another request first (two redeemed it at once): refused as the
   * library refuses a replay, `invalid_grant`, and its grant revoked, so the tokens the winner got are
   * refused too (it may store them after this: they are refused for their grant, which is gone).
   */
  async function refuseLostRedemption(model: string, grantId: string | undefined): Promise<never> {
    const words = LOST_REDEMPTIONS[model] ?? { replayed: `${model} already consumed`, gone: `${model} not found` };
    if (grantId === undefined) throw new deps.library.errors.InvalidGrant(words.gone);
    await revokeGrant(grantId);
    throw new deps.library.errors.InvalidGrant(words.replayed);
  }

  /** The live TGT a provider session stands for, when its principal is `accountId`. */
  const liveTicketOf = async (sessionUid: string | undefined, accountId?: string) => {
    if (sessionUid === undefined) return undefined;
    const tgtId = await sessionTickets.get(sessionUid);
    const tgt = tgtId === undefined ? undefined : await tickets.get(tgtId);
    if (!tgt || tgt.kind !== 'TGT') return undefined;
    if (accountId !== undefined && tgt.authentication.principal.id !== accountId) return undefined;
    return tgt;
  };

  const policy = interactionPolicy.base();
  // The one relying-party path: every authorization reaches its client through /login, which decides
  // for the client's registered service (single sign-on makes that a pair of redirects). Only a request
  // that allows no page (prompt=none) is answered here, by the same decision.
  policy.get('login')?.checks.push(
    new interactionPolicy.Check('relying_party', "The client's registered service is reached through tessera's login", 'login_required', async (ctx) => {
      const { session, result } = ctx.oidc;
      if (result?.['login'] !== undefined || session?.accountId === undefined) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      if (!ctx.oidc.promptPending('none')) return interactionPolicy.Check.REQUEST_PROMPT;
      return (await admitsSilently(ctx)) ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );

  /**
   * Whether the session reaches the client without a page (prompt=none), as /login would decide it: the
   * login session lives, the client's service takes it by single sign-on and admits it (its access
   * rules, its second factor), and no page of the login (a consent) waits for the user.
   */
  async function admitsSilently(ctx: KoaContextWithOIDC): Promise<boolean> {
    const { session, client, params } = ctx.oidc;
    const tgt = await liveTicketOf(session?.uid, session?.accountId);
    const service = client === undefined ? undefined : await clientService(registry, client.clientId);
    if (tgt === undefined || service === undefined) return false;
    const { relyingParties } = deps.core();
    const origin = originOf(ctx);
    if (!relyingParties.reachesBySingleSignOn(service, tgt)) return false;
    const admission = await relyingParties.admit({ service, authentication: tgt.authentication, renewed: false, ...(origin && { origin }) });
    if (!admission.admitted) return false;
    const url = typeof params?.['redirect_uri'] === 'string' ? params['redirect_uri'] : service.serviceId;
    if (await deps.ticketStepsNeeded({ authentication: tgt.authentication, service, url })) return false;
    if (admission.factorSkipped !== undefined && admission.factorSkipped !== 'NONE') {
      deps.events.emit({ type: 'ticket.secondFactorSkipped', service: service.name, principal: tgt.authentication.principal.id, failureMode: admission.factorSkipped }, origin);
    }
    return true;
  }

  const scopeClaims: Record<string, string[]> = { openid: ['sub'], ...Object.fromEntries(Object.entries(STANDARD_SCOPE_CLAIMS).map(([scope, names]) => [scope, [...names]])) };
  for (const [scope, names] of Object.entries(deps.customScopes)) scopeClaims[scope] = [...names];
  // What the login proved and when (amr, acr, auth_time) stands in every ID token: the library keeps a claim only where a scope names it.
  const claims = { ...scopeClaims, openid: ['sub', 'auth_time', 'amr', 'acr'] };
  const scopes = ['openid', 'offline_access', OAUTH_DEFAULT_SCOPE, ...Object.keys(scopeClaims).filter((scope) => scope !== 'openid')];
  const clientAdapter = new RegistryClients(registry, scopes, clock, deps.keys.keys, deps.environment);

  const configuration: Configuration = {
    adapter,
    // The library hands its request-forgery guard as the dispatcher; left out, any address is reached.
    ...(deps.fetchPrivateAddresses && { fetch: (input: string | URL | Request, init?: RequestInit) => fetch(input, withoutDispatcher(init)) }),
    jwks: { keys: deps.keys.keys.map((key) => ({ ...key })) },
    // Secure as the login module's cookies are (the provider's requests are seen as https when the public
    // URL is, below). The session cookie is for the base path (the provider's and Apereo's OAuth paths);
    // the interaction and resume cookies name their own paths under it, and live as long as the interaction.
    cookies: {
      keys: [...deps.keys.cookieSecrets],
      long: { signed: true, httpOnly: true, sameSite: 'lax', path: deps.basePath === '' ? '/' : deps.basePath },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
      names: { session: 'OIDC_SESSION', interaction: 'OIDC_INTERACTION', resume: 'OIDC_RESUME' },
    },
    claims,
    scopes,
    // As Apereo's, an ID token carries the claims its scopes release, not only userinfo: every answer about a token releases one set.
    conformIdTokenClaims: false,
    subjectTypes: ['public', 'pairwise'],
    pairwiseIdentifier: (ctx, accountId, client) => subjectOf(ctx, accountId, client.clientId),
    // Those a client may be registered with, so discovery advertises no other (the grant types follow from them).
    responseTypes: [...OIDC_RESPONSE_TYPES] as ResponseType[],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'client_secret_jwt', 'private_key_jwt', 'none'],
    extraClientMetadata: { properties: ['tessera_service_id', 'tessera_renew_refresh_token', 'tessera_jwt_access_token', 'tessera_response_mode', 'tessera_jwks_key_id', 'tessera_access_token_key', 'tessera_access_token_encryption_key'] },
    enabledJWA: {
      // ID tokens are signed with the keys of the set (the current RS256 key, or an EC key a client names): discovery says those.
      idTokenSigningAlgValues: oidcSigningAlgorithms(deps.keys) as SigningAlgorithmWithNone[],
      // A client_secret_jwt assertion MACed with SHA-384 or SHA-512 too (Apereo's shared-secret jwks clients use HS512).
      clientAuthSigningAlgValues: ['HS256', 'HS384', 'HS512', 'RS256', 'PS256', 'ES256', 'Ed25519', 'EdDSA'],
    },
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    features: {
      devInteractions: { enabled: false },
      // Pushed authorization requests, on in the library by default, are not served: a public client's
      // pushed request was kept unauthenticated (up to 56 KiB for a minute, without the bounds of /auth),
      // and its parameters then became an interaction past the 4096 bytes /auth allows.
      pushedAuthorizationRequests: { enabled: false },
      // A client's token for itself (no user, no ID token), for the clients whose supportedGrantTypes say so.
      clientCredentials: { enabled: true },
      // Apereo's encryptIdToken: ID tokens encrypted to the client's public key (its jwks).
      encryption: { enabled: true },
      // JARM: the authorization's answer as a JWT signed with the provider's key (query.jwt, fragment.jwt, form_post.jwt, jwt).
      jwtResponseModes: { enabled: true },
      // Apereo's jwtAccessToken: the client's access tokens are RFC 9068 JWTs for its own resource
      // (jwtResourceOf), whether or not it names one, signed with the provider's key. Any other resource
      // is refused (invalid_target), as the library's default does.
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, client) => (issuesJwtAccessTokens(client as unknown as ClientFields) ? jwtResourceOf(client.clientId) : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator, client) => {
          if (!issuesJwtAccessTokens(client as unknown as ClientFields) || indicator !== jwtResourceOf(client.clientId)) throw new deps.library.errors.InvalidTarget();
          // MACed with the client's own key (accessTokenAsJwtSigningKey), else signed with the key it names (jwksKeyId), else with the current RS256 key.
          const ownKey = ownAccessTokenKey(client as unknown as ClientFields);
          const kid = namedSigningKey(client as unknown as ClientFields);
          const key = kid === undefined ? undefined : deps.keys.keys.find((candidate) => candidate.kid === kid);
          const encryptionKey = ownEncryptionKey(client as unknown as ClientFields);
          const sign = ownKey !== undefined ? { alg: 'HS512' as const, key: ownKey } : key !== undefined ? { alg: key.alg as 'RS256', kid: key.kid } : undefined;
          // Encrypted with its own key (accessTokenAsJwtEncryptionKey): signed first only with an own signing key, as Apereo's signing-off clients have none.
          const encrypt = encryptionKey === undefined ? undefined : { alg: 'dir' as const, enc: CONTENT_ENCRYPTION_BY_KEY_BYTES[encryptionKey.length]!, key: encryptionKey };
          const jwt = encrypt !== undefined ? { ...(ownKey !== undefined && { sign }), encrypt } : sign !== undefined ? { sign } : undefined;
          return { scope: client.scope ?? '', audience: client.clientId, accessTokenFormat: 'jwt', accessTokenTTL: deps.lifetimes.accessTokenSeconds, ...(jwt !== undefined && { jwt }) };
        },
      },
      // A client learns of, and ends, only the tokens issued to itself; a token whose login session has
      // ended is inactive, as userinfo refuses it.
      introspection: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId && (await loginSessionLives(token as { accountId?: string; sessionUid?: string })) },
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => Promise.resolve(token.clientId === client.clientId) },
      userinfo: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => Promise.resolve(sendPage(ctx, 200, pages.logout(form))),
        postLogoutSuccessSource: (ctx) => Promise.resolve(sendPage(ctx, 200, pages.loggedOut())),
      },
    },
    interactions: {
      policy,
      // Called once per interaction, just stored: counted for its client address, which keeps the address's pending ones bounded.
      async url(ctx, interaction) {
        await pendingInteractions.add(adapter('Interaction'), interaction.uid, clientAddressOf(ctx), clock.now() + deps.lifetimes.interactionSeconds * 1000);
        return `${deps.issuer}/interaction/${interaction.uid}`;
      },
    },
    issueRefreshToken: (_ctx, client) => Promise.resolve(client.grantTypeAllowed('refresh_token')),
    // Apereo's renewRefreshToken, per client (its default: no, the refresh token is used again until it expires).
    // A public client's refresh token is a bearer secret nothing else binds: it rotates whatever the definition says.
    rotateRefreshToken: (ctx) => ctx.oidc.client?.clientAuthMethod === 'none' || renewsRefreshToken(ctx.oidc.client as unknown as ClientFields | undefined),
    // The redirect URI an access token's authorization came back to, for the OAuth profile (Apereo's `service`).
    async extraTokenClaims(ctx, token) {
      // A JWT access token (jwtAccessToken) carries RFC 9068's claims only: the profile reads no JWT.
      if (token.kind !== 'AccessToken' || (token as { resourceServer?: { accessTokenFormat?: string } }).resourceServer?.accessTokenFormat === 'jwt') return undefined;
      const code = ctx.oidc.entities.AuthorizationCode;
      const grantId = (token as { grantId?: string }).grantId;
      if (grantId === undefined) return undefined;
      if (code?.redirectUri !== undefined) {
        // Kept for the access tokens of the grant's refresh tokens: only a client that gets refresh tokens needs it.
        if (ctx.oidc.client?.grantTypeAllowed('refresh_token') === true) {
          await grantRedirectUris.put(grantId, code.redirectUri, clock.now() + Math.max(SESSION_LINK_SECONDS, deps.lifetimes.refreshTokenSeconds) * 1000);
        }
        return { redirect_uri: code.redirectUri };
      }
      const redirectUri = ctx.oidc.entities.RefreshToken === undefined ? undefined : await grantRedirectUris.get(grantId);
      return redirectUri === undefined ? undefined : { redirect_uri: redirectUri };
    },
    ttl: {
      AccessToken: deps.lifetimes.accessTokenSeconds,
      IdToken: deps.lifetimes.idTokenSeconds,
      RefreshToken: deps.lifetimes.refreshTokenSeconds,
      AuthorizationCode: deps.lifetimes.codeSeconds,
      Interaction: deps.lifetimes.interactionSeconds,
      // Stored no longer than the login session it stands for can live (its cookie ends with the browser, as the TGC).
      Session: (_ctx, session) => {
        const loggedInFor = session.loginTs === undefined ? 0 : Math.max(0, Math.floor(clock.now() / 1000) - session.loginTs);
        return Math.max(1, deps.loginSessionSeconds - loggedInFor);
      },
      Grant: SESSION_LINK_SECONDS,
    },
    clientBasedCORS: (_ctx, origin, client) => {
      const pattern = serviceIdOf(client as unknown as ClientFields);
      return typeof pattern === 'string' && client.redirectUris?.some((uri) => new URL(uri).origin === origin) === true;
    },
    renderError: (ctx, out) => Promise.resolve(sendPage(ctx, ctx.status >= 400 ? ctx.status : 400, pages.error(String(out.error), out.error_description === undefined ? undefined : String(out.error_description)))),
    async loadExistingGrant(ctx) {
      const { session, client, result } = ctx.oidc;
      if (!session || !client) return undefined;
      const grantId = (result?.['consent'] as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const grant = await ctx.oidc.provider.Grant.find(grantId);
        if (grant) return grant;
      }
      if (!(await bypassesApproval(client.clientId)) || session.accountId === undefined) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId: session.accountId, clientId: client.clientId });
      grant.addOIDCScope(ctx.oidc.requestParamScopes ? [...ctx.oidc.requestParamScopes].join(' ') : 'openid');
      // A JWT client's own resource (jwtResourceOf): the scopes asked that it takes.
      for (const [indicator, server] of Object.entries(ctx.oidc.resourceServers ?? {})) {
        const asked = [...(ctx.oidc.requestParamScopes ?? [])].filter((scope) => server.scopes.has(scope));
        if (asked.length > 0) grant.addResourceScope(indicator, asked.join(' '));
      }
      await grant.save();
      return grant;
    },
    findAccount(ctx, sub, token) {
      if (token === undefined) return accountAtAuthorization(ctx, sub);
      // A token's account (its ID token, userinfo), under its client's current registered service.
      const { clientId, sessionUid } = token as { clientId?: string; sessionUid?: string };
      const id = ctx.oidc.client?.clientId ?? clientId;
      if (id === undefined) return undefined;
      return releasedTo(id, sessionUid ?? ctx.oidc.session?.uid, sub).then((user) => user && accountOf(sub, user));
    },
  };

  async function accountAtAuthorization(ctx: KoaContextWithOIDC, sub: string): Promise<Account | undefined> {
    // A login through /login just finished: from now on the provider session is that TGT's.
    const loggedIn = (ctx.oidc.result as { tessera?: { tgt?: unknown } } | undefined)?.tessera?.tgt;
    if (ctx.oidc.session && typeof loggedIn === 'string') {
      await sessionTickets.put(ctx.oidc.session.uid, loggedIn, clock.now() + SESSION_LINK_SECONDS * 1000, { group: loggedIn });
    }
    const clientId = ctx.oidc.client?.clientId;
    if (clientId === undefined) return undefined;
    const user = await releasedTo(clientId, ctx.oidc.session?.uid, sub);
    if (!user) return undefined;
    // Who the user is to the client now, for where the library asks it without a session.
    if (user.service.usernameProvider !== undefined) await rememberSubject(clientId, sub, (await user.released()).username);
    return accountOf(sub, user);
  }

  /** `sub` is the account; the library turns it into the client's subject (pairwiseIdentifier) wherever it writes one. */
  function accountOf(sub: string, user: ReleasedUser): Account {
    return { accountId: sub, claims: (_use: string, scope: string) => user.claims(scope).then((released) => claimsOf(sub, released) as AccountClaims) };
  }

  /**
   * Who the user of the live login session `sessionUid` stands for is to the client, and what the
   * client's service receives: the relying-party path's answer over its definition; undefined when
   * the session has ended or the client is gone. The service is the registry's current one, read here:
   * a library Client is shared by every definition of the same metadata, so it cannot name one.
   */
  function releasedTo(clientId: string, sessionUid: string | undefined, accountId: string): Promise<ReleasedUser | undefined> {
    return liveTicketOf(sessionUid, accountId).then((tgt) => (tgt === undefined ? undefined : clientService(registry, clientId).then((current) => current && userOf(current, tgt))));
  }

  function userOf(service: RegisteredService, tgt: TicketGrantingTicket): ReleasedUser | undefined {
    const client = OIDC_CLIENT.of(service);
    if (!client) return undefined;
    const { principal } = tgt.authentication;
    // Its definition decides for the tokens it holds too: one that now refuses the user or the way the
    // login was proved (its access rules, the modules' admission rules: an upstream provider its
    // delegation policy no longer allows), or is switched off, expired, out of its time window, gets
    // nothing more for it. The login is the live TGT's, read here anyway: no other read.
    if (!deps.core().relyingParties.stillAdmits(service, tgt.authentication)) return undefined;
    // Who the user is to the service and what its policy releases, worked out only where asked (a
    // subject the username provider gives, the OAuth profile): an ID token or userinfo needs the claims alone.
    let identity: Promise<{ readonly username: string; readonly attributes: AttributeMap }> | undefined;
    const released = () => (identity ??= deps.core().relyingParties.release({ service, url: service.serviceId, principal }));
    const claims = (scope: string | undefined): Promise<AttributeMap> => {
      const grant = { scopes: (scope ?? '').split(' ').filter(Boolean), claimsMap: deps.claimsMap };
      return deps.core().relyingParties.releasedClaims({ service: claimsServiceOf(service, client.scopes), url: service.serviceId, principal, grant });
    };
    return { released, claims, viewType: client.userProfileViewType ?? 'NESTED', service, tgt };
  }

  /**
   * The service the claims of the scopes granted come from (OpenID Connect clients): its release policy
   * reconciled with the client's scopes, as Apereo's, each scope policy releasing only for its scope.
   * Made once per service object: the registry hands out a new one for a changed definition.
   */
  const claimsServices = new WeakMap<RegisteredService, RegisteredService>();
  function claimsServiceOf(service: RegisteredService, clientScopes: readonly string[]): RegisteredService {
    let made = claimsServices.get(service);
    if (made === undefined) claimsServices.set(service, (made = { ...service, attributeRelease: claimsReleasePolicy(service.attributeRelease, clientScopes, deps.customScopes) }));
    return made;
  }

  async function rememberSubject(clientId: string, accountId: string, subject: string): Promise<void> {
    const key = subjectKey(clientId, accountId);
    if ((await subjects.get(key)) === subject) return;
    await subjects.put(key, subject, clock.now() + Math.max(SESSION_LINK_SECONDS, deps.lifetimes.refreshTokenSeconds) * 1000);
  }

  /**
   * The subject the client knows the account by (its username provider's answer): as the client's last
   * authorization found it, else from the request's live login session. Never the account itself when
   * neither is at hand: the client would learn an id its definition keeps from it.
   */
  async function subjectOf(ctx: KoaContextWithOIDC | undefined, accountId: string, clientId: string): Promise<string> {
    const remembered = await subjects.get(subjectKey(clientId, accountId));
    if (remembered !== undefined) return remembered;
    const entities = ctx?.oidc?.entities as { AccessToken?: { sessionUid?: string }; RefreshToken?: { sessionUid?: string } } | undefined;
    const sessionUid = ctx?.oidc?.session?.uid ?? entities?.AccessToken?.sessionUid ?? entities?.RefreshToken?.sessionUid;
    const user = await releasedTo(clientId, sessionUid, accountId);
    if (user === undefined) throw new Error('Who the user is to this client is not known without a login session');
    const { username } = await user.released();
    await rememberSubject(clientId, accountId, username);
    return username;
  }

  /** Whether a token's login session still lives (a client's own token, without a user, has none to end). */
  async function loginSessionLives(token: { readonly accountId?: string | undefined; readonly sessionUid?: string | undefined }): Promise<boolean> {
    if (token.accountId === undefined) return true;
    return (await liveTicketOf(token.sessionUid, token.accountId)) !== undefined;
  }

  async function profileOf(accessToken: string): Promise<AccessTokenProfile | 'missing'> {
    const token = await provider.AccessToken.find(accessToken);
    if (token?.accountId === undefined || token.clientId === undefined) return 'missing';
    const user = await releasedTo(token.clientId, token.sessionUid, token.accountId);
    if (!user) return 'missing';
    const redirectUri = (token.extra as { redirect_uri?: unknown } | undefined)?.redirect_uri;
    return {
      id: (await user.released()).username,
      clientId: token.clientId,
      ...(typeof redirectUri === 'string' && { redirectUri }),
      attributes: await withinScopes(user, token.scope),
      viewType: user.viewType,
    };
  }

  /**
   * What an OpenID Connect client's token releases: the claims of its granted scopes, as the ID token
   * and userinfo release them (the client's scope release policies). A plain OAuth client's scopes
   * stand for no claim: it gets what its release policy releases, as Apereo's profile gives it.
   */
  async function withinScopes(user: { readonly service: RegisteredService; released(): Promise<{ readonly attributes: AttributeMap }>; claims(scope: string | undefined): Promise<AttributeMap> }, scope: string | undefined): Promise<AttributeMap> {
    return isOAuthOnlyClient(user.service) ? (await user.released()).attributes : user.claims(scope);
  }

  /** Introspection of an OpenID Connect client's token tells the claims its ID token and userinfo release, beside `sub`. */
  async function addReleasedClaims(ctx: KoaContextWithOIDC): Promise<void> {
    const body = ctx.body as Record<string, unknown> | undefined;
    const { AccessToken: accessToken, RefreshToken: refreshToken } = ctx.oidc.entities as { AccessToken?: IntrospectedToken; RefreshToken?: IntrospectedToken };
    const token = accessToken ?? refreshToken;
    if (body?.['active'] !== true || token?.accountId === undefined || token.clientId === undefined) return;
    const user = await releasedTo(token.clientId, token.sessionUid, token.accountId);
    if (user === undefined) {
      ctx.body = { active: false };
      return;
    }
    if (isOAuthOnlyClient(user.service)) return;
    const { sub: _account, ...released } = claimsOf(token.accountId, await withinScopes(user, token.scope));
    ctx.body = { ...released, ...body };
  }

  async function bypassesApproval(clientId: string): Promise<boolean> {
    const service = await clientService(registry, clientId);
    return service !== undefined && OIDC_CLIENT.of(service)?.bypassApprovalPrompt === true;
  }

  const provider = new Provider(deps.issuer, configuration);
  // tessera's trusted-proxy rule (as its app's): behind a trusted proxy the client is the address that
  // proxy appended last to X-Forwarded-For; earlier entries come from the client itself and prove nothing.
  provider.proxy = deps.trustProxy;
  provider.maxIpsCount = 1;
  // One public address: every URL the provider builds (discovery's endpoints, jwks_uri, the resume and
  // logout URLs) is the issuer's, never the request's Host or X-Forwarded-Host.
  const contextPrototype = provider.OIDCContext.prototype as unknown as { urlFor(name: string, options?: Record<string, unknown>): string };
  contextPrototype.urlFor = function urlFor(name: string, options?: Record<string, unknown>) {
    return provider.urlFor(name, options);
  };
  // Behind an https public URL every browser came over TLS, whatever the proxy says: the cookies are Secure.
  if (new URL(deps.issuer).protocol === 'https:') Object.defineProperty((provider as unknown as { request: object }).request, 'secure', { get: () => true });
  releaseClaimsAsComputed(provider);
  issueClientTokensOnlyWhileUsable(provider, async (clientId) => {
    const service = await clientService(registry, clientId);
    return service !== undefined && deps.core().relyingParties.stillAdmits(service);
  }, deps.library.errors);
  answerInRegisteredResponseMode(provider);
  findClientsOncePerMetadata(provider, clientAdapter);
  provider.on('server_error', (ctx: Context, error: unknown) => reportServerError(deps.events, error, ctx));
  // What escapes the provider's own Koa app (a client resetting the connection mid-body): as tessera's app
  // treats it, where Koa would print its stack to stderr, outside the log.
  // The library's types leave out the event its Koa app emits.
  (provider as unknown as EventEmitter).on('error', (error: unknown, ctx: Context) => reportEscapedError(deps.events, error, ctx));
  reportProviderEvents(provider, deps.events);
  // Apereo's OidcRegisteredService: the serviceId is the pattern every redirect URI must match in full.
  const clientPrototype = provider.Client.prototype as unknown as Record<string, unknown> & { tesseraServiceId?: unknown };
  clientPrototype['redirectUriAllowed'] = function redirectUriAllowed(this: ClientFields, value: unknown) {
    return matchesServiceId(serviceIdOf(this), value);
  };
  clientPrototype['postLogoutRedirectUriAllowed'] = function postLogoutRedirectUriAllowed(this: ClientFields, value: unknown) {
    return matchesServiceId(serviceIdOf(this), value);
  };
  // RP-initiated logout ends the tessera login session too, and so runs CAS single logout, when the user
  // chose to log out; "Stay logged in" keeps it, and the provider signs out only the client that asked.
  provider.use((ctx: KoaContextWithOIDC, next) => (AROUND_PROVIDER.test(ctx.path) ? aroundProvider(ctx, next) : next()));
  async function aroundProvider(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    if (isResumedAuthorization(ctx) && !(await resumesInItsOwnBrowser(ctx))) {
      deps.events.emit({ type: 'oidc.refused', request: 'authorization', error: 'login_failed' }, originOf(ctx));
      return sendPage(ctx, 400, pages.error('login_failed', 'The login did not happen in this browser; start again from the application.'));
    }
    await next();
    if (ctx.oidc?.route === 'end_session_confirm' && ctx.status >= 300 && ctx.status < 400 && Boolean(ctx.oidc.params?.['logout'])) {
      // The login session the provider session stood for, not whatever the browser's cookie names now:
      // a login of another user that replaced it (an account switch) ended it already, and stays.
      const sessionUid = ctx.oidc.session?.uid;
      const tgtId = sessionUid === undefined ? undefined : await sessionTickets.get(sessionUid);
      if (tgtId !== undefined) await deps.endLoginSession(ctx, tgtId);
    }
    if (ctx.oidc?.route === 'introspection') await addReleasedClaims(ctx);
  }
  /** A resumed authorization (`GET /auth/<uid>`, or HEAD, which the provider's router takes as the GET), the one request resumesInItsOwnBrowser asks about. */
  function isResumedAuthorization(ctx: KoaContextWithOIDC): boolean {
    return (ctx.method === 'GET' || ctx.method === 'HEAD') && /^\/auth\/[^/]+\/?$/i.test(ctx.path);
  }

  /**
   * Whether a resumed authorization (`GET /auth/<uid>`, its interaction named by the resume cookie, as the
   * library finds it) goes on in the browser that logged in: when /login finished the interaction, the
   * browser's session cookie must name the TGT of that login. The interaction cookie alone does not tie
   * an authorization to a browser: one planted in another's browser (cookie tossing from a sibling host)
   * would have the victim's single sign-on answer it, and the attacker resume it with the victim's login.
   */
  async function resumesInItsOwnBrowser(ctx: KoaContextWithOIDC): Promise<boolean> {
    const uid = ctx.cookies.get(provider.cookieName('resume'), { signed: true });
    const interaction = uid === undefined ? undefined : await provider.Interaction.find(uid);
    const loggedIn = (interaction?.result as { tessera?: { tgt?: unknown } } | undefined)?.tessera?.tgt;
    return typeof loggedIn !== 'string' || (await deps.browserSession(ctx)) === loggedIn;
  }

  async function endSessionsOf(tgtId: string): Promise<void> {
    const sessions = adapter('Session');
    for (const { id: sessionUid } of await sessionTickets.findByGroup(tgtId)) {
      const session = (await sessions.findByUid(sessionUid)) as SessionPayload | undefined;
      // The provider session stands for no login any more: unlinked, it meets no authorization (the
      // login policy and introspection ask for a live one). It stays, so that an authorization under way
      // in the browser (the login that replaced this one) can finish on it.
      await sessionTickets.delete(sessionUid);
      if (session === undefined) continue;
      for (const [clientId, { sid, grantId, persistsLogout }] of Object.entries(session.authorizations ?? {})) {
        if (grantId !== undefined && persistsLogout !== true) await revokeGrant(grantId);
        const client = await provider.Client.find(clientId);
        if (client?.backchannelLogoutUri === undefined || session.accountId === undefined) continue;
        const { accountId } = session;
        // The library's own sending (its logout token, signed and typed as the specification says); its types leave it out.
        const sender = client as unknown as { backchannelLogout(sub: string, sid: string | undefined): Promise<void> };
        await sender.backchannelLogout(accountId, sid).then(
          () => provider.emit('backchannel.success', undefined, client, accountId, sid),
          (error: unknown) => provider.emit('backchannel.error', undefined, error, client, accountId, sid),
        );
      }
      deps.events.emit({ type: 'oidc.logout', ...(session.accountId !== undefined && { principal: session.accountId }) });
    }
  }

  async function subjectFor(clientId: string, tgt: TicketGrantingTicket): Promise<string | undefined> {
    const service = await clientService(registry, clientId);
    return service === undefined ? undefined : (await deps.core().relyingParties.release({ service, url: service.serviceId, principal: tgt.authentication.principal })).username;
  }

  return { provider, errors: deps.library.errors, sessionTickets, profileOf, subjectFor, endSessionsOf };
}
