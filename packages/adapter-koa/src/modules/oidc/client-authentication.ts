import { RateLimitedError, ThrottledError, type RequestOrigin } from '@tessera/core';
import type { Context } from 'koa';
import type { KoaContextWithOIDC, default as ProviderInstance } from 'oidc-provider';
import { statusOf } from '../../errors/error-status.js';
import { setFailureHeaders } from '../../errors/failure-headers.js';
import { toTesseraError } from '../../errors/normalize-error.js';
import type { ClientAuthenticationGuard, ClientAuthenticationOutcome } from '../../http-module.js';
import type { HttpOptions } from '../../http-options.js';
import { handedOverRequestOrigin, requestOrigin } from '../../request/request-origin.js';
import type { ProviderLibrary } from './provider-library.js';

/** The provider's routes that authenticate the client (Apereo's accessToken, introspect and revoke are served by them). */
const CLIENT_AUTHENTICATION_ROUTES: ReadonlySet<string> = new Set(['token', 'introspection', 'revocation']);

/** Their paths as the provider's router matches them (any case): only these requests wait for an outcome. */
const CLIENT_AUTHENTICATION_PATHS = /^\/token(?:\/|$)/i;

/** The answers of requests refused because their client is locked (or over its rate). */
const LOCK_REFUSALS = new WeakSet<object>();

/**
 * Whether the provider refused a request with a lock's answer (429 `invalid_client`): the lock was
 * written once when it was set (the guard's event), so a flood against a locked client writes no line
 * per request, as a flood of locked logins does not.
 */
export function isLockRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && LOCK_REFUSALS.has(error);
}

/** An admitted client authentication: what each guard is told once it is answered, and whether the client proved itself. */
interface Attempt {
  readonly clientId: string | undefined;
  readonly outcomes: readonly ClientAuthenticationOutcome[];
  proved: boolean;
}

type LibraryClient = { compareClientSecret: (this: LibraryClient, actual: string) => boolean };
type ReplayDetection = { unique(iss: string, jti: string, exp: number): Promise<boolean> };

/**
 * Puts every module's client authentication guard (`HttpContext.clientAuthenticationGuards`) around the
 * provider's own client authentication, on the routes of CLIENT_AUTHENTICATION_ROUTES, whichever lane
 * brought the request (docs/protocol.md §5.5):
 * - the guards are asked when the library has looked the named client up, the first step after it read
 *   the `client_id` (HTTP Basic or the form), and before any secret or assertion is looked at; a refusal is
 *   the library's `invalid_client` answer, 429 with `Retry-After` when it says when to come back (OAuth
 *   has no "locked"; a client knows 429), so the request costs no comparison and no signature check;
 * - a client proved itself when its secret compared equal or its assertion was verified (and not
 *   replayed), as the library decides it;
 * - once the provider answered, before the answer is sent, each guard is told: `failed` for a 401
 *   (`invalid_client`, the library's only 401 on these routes), `authenticated` for a proved client,
 *   `unjudged` otherwise (a public client, which has nothing to prove, or a request the library refused
 *   before the client's credentials were judged).
 * Nothing is installed when no module guards.
 */
export function guardClientAuthentication(provider: ProviderInstance, errors: ProviderLibrary['errors'], guards: readonly ClientAuthenticationGuard[], options: HttpOptions): void {
  if (guards.length === 0) return;
  const attempts = new WeakMap<Context, Attempt>();
  // The library runs each route's work with its request context in its own AsyncLocalStorage.
  const currentContext = () => (provider.constructor as unknown as { readonly ctx?: KoaContextWithOIDC }).ctx;

  const Client = provider.Client as unknown as { find(id: string): Promise<unknown> };
  const find = Client.find.bind(Client);
  Object.defineProperty(Client, 'find', {
    configurable: true,
    // No async frame for the lookups no guard takes (every other route's).
    value: (id: string) => {
      const ctx = currentContext();
      if (ctx === undefined || typeof id !== 'string' || !CLIENT_AUTHENTICATION_ROUTES.has(ctx.oidc.route) || attempts.has(ctx)) return find(id);
      // Looked up first: the guards count an id no client has under the address alone (so made-up ids
      // cannot fill their store), and the lookup compares no secret.
      return find(id).then((client) => admit(ctx, client === undefined ? undefined : id).then(() => client));
    },
  });

  async function admit(ctx: KoaContextWithOIDC, clientId: string | undefined): Promise<void> {
    const origin: RequestOrigin = { ...(handedOverRequestOrigin(ctx.req) ?? requestOrigin(ctx)), endpoint: `${ctx.method} oidc:${ctx.oidc.route}` };
    const outcomes: ClientAuthenticationOutcome[] = [];
    try {
      for (const guard of guards) outcomes.push(await guard.admit({ origin, clientId }));
    } catch (thrown) {
      throw refusal(ctx, thrown);
    }
    attempts.set(ctx, { clientId, outcomes, proved: false });
  }

  /** A guard's refusal as the library answers it: `invalid_client` with the guard's message and headers; an unexpected failure as it is (the library's server_error). */
  function refusal(ctx: KoaContextWithOIDC, thrown: unknown): unknown {
    const error = toTesseraError(thrown);
    if (error === undefined) return thrown;
    const locked = error instanceof ThrottledError || error instanceof RateLimitedError;
    const status = locked ? 429 : statusOf(error.code, options);
    if (status >= 500) return thrown;
    setFailureHeaders(ctx, error);
    const answer = Object.assign(new errors.InvalidClientAuth(), { status, statusCode: status, error_description: error.message });
    if (locked) LOCK_REFUSALS.add(answer);
    return answer;
  }

  const clientPrototype = provider.Client.prototype as unknown as LibraryClient;
  const compareClientSecret = clientPrototype.compareClientSecret;
  clientPrototype.compareClientSecret = function compareAndNote(this: LibraryClient, actual: string) {
    const matches = compareClientSecret.call(this, actual);
    if (matches) {
      const ctx = currentContext();
      const attempt = ctx && attempts.get(ctx);
      if (attempt) attempt.proved = true;
    }
    return matches;
  };
  // An assertion (client_secret_jwt, private_key_jwt) is accepted once its jti is found unused, the last
  // step after its signature and claims were verified.
  const replayDetection = provider.ReplayDetection as unknown as ReplayDetection;
  const unique = replayDetection.unique.bind(replayDetection);
  replayDetection.unique = (iss, jti, exp) =>
    unique(iss, jti, exp).then((isUnique) => {
      const ctx = currentContext();
      const attempt = ctx && attempts.get(ctx);
      if (isUnique && attempt?.clientId === iss && ctx?.oidc.params?.['client_assertion'] !== undefined) attempt.proved = true;
      return isUnique;
    });

  provider.use((ctx, next) => (CLIENT_AUTHENTICATION_PATHS.test(ctx.path) ? next().then(() => settle(ctx)) : next()));
  async function settle(ctx: Context): Promise<void> {
    const attempt = attempts.get(ctx);
    if (attempt === undefined) return;
    attempts.delete(ctx);
    for (const outcome of attempt.outcomes) await (ctx.status === 401 ? outcome.failed() : attempt.proved ? outcome.authenticated() : outcome.unjudged());
  }
}
