import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouterContext } from '@koa/router';
import { PayloadTooLargeError, type LoginPrompt } from '@tessera/core';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import { statusOf, UNEXPECTED_ERROR_STATUS } from '../../errors/error-status.js';
import { setFailureHeaders } from '../../errors/failure-headers.js';
import { toTesseraError } from '../../errors/normalize-error.js';
import { reportServerError } from '../../errors/report.js';
import type { DirectLane, HttpContext, HttpModule } from '../../http-module.js';
import { sendPage } from '../../pages/send-page.js';
import { handOverRequestOrigin } from '../../request/request-origin.js';
import { routePattern } from '../../request/route-pattern.js';
import type { OidcPages } from './oidc-pages.js';
import type { TesseraOidcProvider } from './oidc-provider.js';
import { OAUTH_DEFAULT_SCOPE } from './oidc-provider.js';
import { oauthRoutes } from './oauth-routes.js';
import { oidcRoutes } from './oidc-routes.js';
import { guardClientAuthentication } from './client-authentication.js';

export interface OidcModuleOptions {
  /** The provider, once its library has loaded (at start). */
  readonly oidc: () => Promise<TesseraOidcProvider>;
  readonly pages: OidcPages;
  readonly issuer: string;
  readonly loginUrl: string;
  /** The `amr` value (RFC 8176) of each credential kind that declares one, by its type. */
  readonly authenticationMethods: Readonly<Record<string, string>>;
  /** Told the browser login's prompts once the app is built: the provider asks its ticket prompts before a silent authorization. */
  readonly useLoginPrompts?: (prompts: readonly LoginPrompt[]) => void;
}

/**
 * The `oidc` module: node-oidc-provider under `<basePath>/oidc` (discovery, authorization, token,
 * userinfo, JWKS, introspection, revocation, logout), Apereo's OAuth 2.0 endpoints under
 * `<basePath>/oauth2.0` (the same provider's, and the profile), and the interaction routes that put
 * its logins on tessera's /login.
 */
export function oidcModule(options: OidcModuleOptions): HttpModule {
  // One provider, one listener: made for the first app, with that app's client authentication guards.
  let providerListener: (() => Promise<ProviderListener>) | undefined;
  const listenerFor = (http: HttpContext) => (providerListener ??= listenerOf(options.oidc, http));
  return {
    name: 'oidc',
    routes: (http) => {
      options.useLoginPrompts?.(http.loginPrompts.map((part) => part.prompt));
      return [...oidcRoutes(http, options), ...oauthRoutes(http, options)];
    },
    mounted: (http) => mountProvider(http, options, listenerFor(http)),
    directLane: (http) => providerLane(http, listenerFor(http)),
  };
}

/**
 * The most bytes an authorization request's query may take (the provider serves it by GET only): the
 * provider keeps its parameters while the browser logs in, so this bounds what one request costs the
 * storage. Real clients send far less (a state, a nonce, a PKCE challenge, a redirect URI, scopes).
 */
export const AUTHORIZATION_REQUEST_BYTES = 4096;

/** Apereo's OAuth 2.0 endpoints (`<basePath>/oauth2.0/<name>`) that are the provider's, and the provider's path of each. */
const OAUTH_ENDPOINTS: Readonly<Record<string, string>> = {
  authorize: '/auth',
  accessToken: '/token',
  token: '/token',
  introspect: '/token/introspection',
  revoke: '/token/revocation',
};

/**
 * The paths of the module's interaction routes under the provider's (oidcRoutes: `/interaction/{uid}`
 * and its `login`, `refused` and `consent`), as the router matches them: any case, a trailing slash or none.
 */
const INTERACTION_ROUTES = /^\/interaction\/[^/?]+(?:\/(?:login|refused|consent))?\/?(?:\?|$)/i;

type ProviderListener = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/**
 * The provider's own Koa app as a listener, made once its library has loaded (the first request waits for
 * it; one that finds it failed tries again), its client authentication under the app's guards.
 */
function listenerOf(oidc: OidcModuleOptions['oidc'], http: HttpContext): () => Promise<ProviderListener> {
  let made: Promise<ProviderListener> | undefined;
  return () =>
    (made ??= oidc().then(
      ({ provider, errors }) => {
        guardClientAuthentication(provider, errors, http.clientAuthenticationGuards, http.options);
        rememberAnsweringContexts(provider);
        return provider.callback();
      },
      (error: unknown) => {
        made = undefined;
        throw error;
      },
    ));
}

/** Where a request keeps the provider's context that answers it, whose route pattern (its own router's, e.g. `/token`) names the request in the metrics. */
const ANSWERING_CONTEXT = Symbol('the provider context answering this request');
/** null: the lane handed the request over and waits for its context; undefined: nothing to note (the app's requests) or let go of. */
type AnsweredRequest = IncomingMessage & { [ANSWERING_CONTEXT]?: Context | null | undefined };

/**
 * Notes on each request the lane handed over the context the provider's app makes for it, as the app
 * makes it: a middleware would add a step (and a promise) to every request of the provider's.
 */
function rememberAnsweringContexts(provider: Pick<Koa, 'createContext'>): void {
  const createContext = provider.createContext.bind(provider);
  provider.createContext = (request, response) => {
    const ctx = createContext(request, response);
    // Only a request the lane handed over: one of the app's (an authorization, an interaction route
    // asking the provider) is never settled, so its context is not tied to it.
    if ((request as AnsweredRequest)[ANSWERING_CONTEXT] === null) (request as AnsweredRequest)[ANSWERING_CONTEXT] = ctx;
    return ctx;
  };
}

/**
 * A request target every URL parser reads alike: printable ASCII without `#` or `\`. With one of those (or
 * whitespace, or a byte beyond ASCII) Koa's parser may read the path otherwise than its text says
 * (`/auth\?query#` is `/auth/` with that query): such a target goes through the app, whose guards
 * decide on the path as the provider will route it.
 */
const PLAIN_TARGET = /^[\x21-\x22\x24-\x5b\x5d-\x7e]*$/;

/**
 * The provider's requests that need nothing of tessera's app, answered on the listener (its hot paths:
 * the token, userinfo, introspection and JWKS endpoints; discovery): every request under
 * `<basePath>/oidc` but the authorization endpoint, whose requests pass the app's guards first, and the
 * module's interaction routes, which are the app's. A request whose target is absolute
 * (`GET http://host/...`) goes through the app, which reads it. The provider finds the client address
 * by tessera's trusted-proxy rule itself, and renders its own errors.
 */
function providerLane(http: HttpContext, providerListener: () => Promise<ProviderListener>): DirectLane {
  const prefix = `${http.options.basePath}/oidc`;
  const providerUrlOf = (url: string | undefined): string | undefined => {
    if (url === undefined || !url.startsWith(`${prefix}/`) || !PLAIN_TARGET.test(url)) return undefined;
    const providerUrl = url.slice(prefix.length);
    return INTERACTION_ROUTES.test(providerUrl) || isAuthorizationEndpoint(providerUrl) ? undefined : providerUrl;
  };
  const handOver = (handle: ProviderListener, request: IncomingMessage, response: ServerResponse, providerUrl: string): Promise<void> => {
    // The provider finds its mount path from what `originalUrl` has before `url`.
    (request as IncomingMessage & { originalUrl?: string | undefined }).originalUrl = request.url;
    request.url = providerUrl;
    (request as AnsweredRequest)[ANSWERING_CONTEXT] = null;
    return handle(request, response);
  };
  // Once made, called as it is: no async frame, no wait on a settled promise for each request.
  let ready: ProviderListener | undefined;
  const answer = (request: IncomingMessage, response: ServerResponse, providerUrl: string): Promise<void> => {
    if (ready !== undefined) return handOver(ready, request, response, providerUrl);
    return providerListener().then((handle) => handOver((ready = handle), request, response, providerUrl));
  };
  return {
    settled(request) {
      const answered = (request as AnsweredRequest)[ANSWERING_CONTEXT];
      if (answered === undefined || answered === null) return undefined;
      // Let go of the context: a response still referenced after its answer (graceful close notes them)
      // would otherwise keep the request's whole context alive through the next garbage collections.
      (request as AnsweredRequest)[ANSWERING_CONTEXT] = undefined;
      const route = routePattern(answered);
      return route === undefined ? undefined : `${prefix}${route}`;
    },
    serve(request, response) {
      const providerUrl = providerUrlOf(request.url);
      return providerUrl === undefined ? undefined : answer(request, response, providerUrl);
    },
  };
}

/**
 * The provider's own Koa app, handed the requests under `<basePath>/oidc` the direct lane did not take
 * (its authorization endpoint; any request with an absolute target) but the module's interaction
 * routes, and those of Apereo's OAuth 2.0 endpoints, as the requests to the provider's paths they stand
 * for. The provider is told the origin tessera found (client address by its trusted-proxy rule, the
 * request's id); an authorization request first passes the size limit and every module's authorization
 * guard, whose refusals are error pages.
 */
function mountProvider(http: HttpContext, { pages }: OidcModuleOptions, providerListener: () => Promise<ProviderListener>): Middleware {
  const { basePath } = http.options;
  const prefix = `${basePath}/oidc`;
  return async (ctx, next) => {
    const providerUrl = ctx.path === prefix || ctx.path.startsWith(`${prefix}/`) ? withQuery(ctx.path.slice(prefix.length) || '/', ctx.querystring) : oauthEndpointUrl(basePath, ctx.path, ctx.querystring);
    if (providerUrl === undefined || INTERACTION_ROUTES.test(providerUrl)) {
      await next();
      return;
    }
    handOverRequestOrigin(ctx);
    if (isAuthorizationEndpoint(providerUrl)) {
      try {
        await admitAuthorization(ctx, http);
      } catch (thrown) {
        refuseAuthorization(ctx, thrown, http, pages);
        return;
      }
    }
    const handle = await providerListener();
    // The provider finds its mount path from what `originalUrl` has before `url`. The request's own
    // target may be absolute (`GET http://host/...`): the provider is given the path and query only.
    const url = ctx.req.url;
    Object.assign(ctx.req, { originalUrl: `${prefix}${providerUrl}` });
    ctx.req.url = providerUrl;
    ctx.respond = false;
    try {
      await handle(ctx.req, ctx.res);
    } finally {
      ctx.req.url = url;
      ctx.status = ctx.res.statusCode;
    }
  };
}

/**
 * Whether a URL of the provider is its authorization endpoint as its router matches it: any case, with
 * or without a trailing slash (`/auth/`, `/AUTH`), so that no spelling of it passes the guards by.
 */
function isAuthorizationEndpoint(providerUrl: string): boolean {
  return AUTHORIZATION_ENDPOINT.test(providerUrl);
}

/** `/auth` in any case, with any number of trailing slashes, before the query. */
const AUTHORIZATION_ENDPOINT = /^\/auth\/*(?:\?|$)/i;

function withQuery(path: string, querystring: string): string {
  return querystring === '' ? path : `${path}?${querystring}`;
}

/** An authorization request is let through: its query within AUTHORIZATION_REQUEST_BYTES, then every authorization guard. */
async function admitAuthorization(ctx: Context, http: HttpContext): Promise<void> {
  if (Buffer.byteLength(ctx.querystring) > AUTHORIZATION_REQUEST_BYTES) {
    throw new PayloadTooLargeError(`An authorization request may carry at most ${AUTHORIZATION_REQUEST_BYTES} bytes of parameters`);
  }
  const steps = http.authorizationGuards;
  const run = async (index: number): Promise<void> => {
    if (index < steps.length) await steps[index]!(ctx as RouterContext, () => run(index + 1));
  };
  await run(0);
}

/** A refused authorization request: an error page with the status of the one table and its headers (Retry-After). */
function refuseAuthorization(ctx: Context, thrown: unknown, http: HttpContext, pages: OidcPages): void {
  const error = toTesseraError(thrown);
  const status = error ? statusOf(error.code, http.options) : UNEXPECTED_ERROR_STATUS;
  if (status >= 500) reportServerError(http.events, thrown, ctx);
  setFailureHeaders(ctx, error);
  const code = status === 429 || status === 503 ? 'temporarily_unavailable' : status >= 500 ? 'server_error' : 'invalid_request';
  sendPage(ctx, status, pages.error(code, error && status < 500 ? error.message : 'The server cannot take this request now; please try again later.'));
}

/**
 * The provider's URL for a request to one of Apereo's OAuth 2.0 endpoints; undefined for any other
 * path. As on Apereo's OAuth endpoints, which give no ID token, an authorization request's `openid`
 * scope is left out: the client gets OAuth 2.0's answer, a code for an access token. One that names
 * no other scope (as Apereo's clients mostly do) asks for OAUTH_DEFAULT_SCOPE: the provider grants
 * nothing without a scope.
 */
function oauthEndpointUrl(basePath: string, path: string, querystring: string): string | undefined {
  const name = path.startsWith(`${basePath}/oauth2.0/`) ? path.slice(basePath.length + '/oauth2.0/'.length) : undefined;
  const target = name !== undefined && Object.hasOwn(OAUTH_ENDPOINTS, name) ? OAUTH_ENDPOINTS[name] : undefined;
  if (target === undefined) return undefined;
  const query = new URLSearchParams(querystring);
  const scope = query.get('scope');
  if (target === '/auth' && scope !== null) {
    const kept = scope.split(' ').filter((value) => value !== 'openid' && value !== '');
    query.set('scope', kept.length === 0 ? OAUTH_DEFAULT_SCOPE : kept.join(' '));
  } else if (target === '/auth') {
    query.set('scope', OAUTH_DEFAULT_SCOPE);
  }
  const search = query.toString();
  return search === '' ? target : `${target}?${search}`;
}
