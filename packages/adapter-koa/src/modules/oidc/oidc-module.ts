import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import type { HttpModule, TicketStep } from '../../http-module.js';
import type { OidcPages } from './oidc-pages.js';
import type { TesseraOidcProvider } from './oidc-provider.js';
import { OAUTH_DEFAULT_SCOPE } from './oidc-provider.js';
import { oauthRoutes } from './oauth-routes.js';
import { oidcRoutes } from './oidc-routes.js';

export interface OidcModuleOptions {
  /** The provider, once its library has loaded (at start). */
  readonly oidc: () => Promise<TesseraOidcProvider>;
  readonly pages: OidcPages;
  readonly issuer: string;
  readonly loginUrl: string;
  /** The `amr` value (RFC 8176) of each credential kind that declares one, by its type. */
  readonly authenticationMethods: Readonly<Record<string, string>>;
  /** Told the browser login's ticket steps once the app is built: the provider asks them before a silent authorization. */
  readonly useTicketSteps?: (steps: readonly TicketStep[]) => void;
}

/**
 * The `oidc` module: node-oidc-provider under `<basePath>/oidc` (discovery, authorization, token,
 * userinfo, JWKS, introspection, revocation, logout), Apereo's OAuth 2.0 endpoints under
 * `<basePath>/oauth2.0` (the same provider's, and the profile), and the interaction routes that put
 * its logins on tessera's /login.
 */
export function oidcModule(options: OidcModuleOptions): HttpModule {
  return {
    name: 'oidc',
    routes: (http) => {
      options.useTicketSteps?.(http.loginForm.ticketSteps);
      return [...oidcRoutes(http, options), ...oauthRoutes(http, options)];
    },
    mounted: (http) => mountProvider(http.options.basePath.replace(/\/+$/, ''), options.oidc),
  };
}

/** Apereo's OAuth 2.0 endpoints (`<basePath>/oauth2.0/<name>`) that are the provider's, and the provider's path of each. */
const OAUTH_ENDPOINTS: Readonly<Record<string, string>> = {
  authorize: '/auth',
  accessToken: '/token',
  token: '/token',
  introspect: '/token/introspection',
  revoke: '/token/revocation',
};

/**
 * The provider's own Koa app, handed the requests under `<basePath>/oidc` that no route of tessera's
 * took, and those of Apereo's OAuth 2.0 endpoints, as the requests to the provider's paths they stand for.
 */
function mountProvider(basePath: string, oidc: () => Promise<TesseraOidcProvider>): Middleware {
  const prefix = `${basePath}/oidc`;
  let handler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  return async (ctx, next) => {
    const url = ctx.req.url ?? '/';
    const providerUrl = ctx.path === prefix || ctx.path.startsWith(`${prefix}/`) ? url.slice(prefix.length) || '/' : oauthEndpointUrl(basePath, ctx.path, ctx.querystring);
    if (providerUrl === undefined) {
      await next();
      return;
    }
    const handle = (handler ??= (await oidc()).provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>);
    // The provider finds its mount path from what `originalUrl` has before `url`.
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
