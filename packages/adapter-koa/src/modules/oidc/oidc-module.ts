import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import type { HttpModule } from '../../http-module.js';
import type { OidcPages } from './oidc-pages.js';
import type { TesseraOidcProvider } from './oidc-provider.js';
import { oidcRoutes } from './oidc-routes.js';

export interface OidcModuleOptions {
  /** The provider, once its library has loaded (at start). */
  readonly oidc: () => Promise<TesseraOidcProvider>;
  readonly pages: OidcPages;
  readonly issuer: string;
  readonly loginUrl: string;
}

/**
 * The `oidc` module: node-oidc-provider under `<basePath>/oidc` (discovery, authorization, token,
 * userinfo, JWKS, introspection, revocation, logout), and the interaction routes that put its logins
 * on tessera's /login.
 */
export function oidcModule(options: OidcModuleOptions): HttpModule {
  return {
    name: 'oidc',
    routes: (http) => oidcRoutes(http, options),
    mounted: (http) => mountProvider(`${http.options.basePath.replace(/\/+$/, '')}/oidc`, options.oidc),
  };
}

/** The provider's own Koa app, handed the requests under its path that no route of tessera's took. */
function mountProvider(prefix: string, oidc: () => Promise<TesseraOidcProvider>): Middleware {
  let handler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  return async (ctx, next) => {
    if (ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) {
      await next();
      return;
    }
    const handle = (handler ??= (await oidc()).provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>);
    const url = ctx.req.url ?? '/';
    // The provider finds its mount path from what `originalUrl` has before `url`.
    Object.assign(ctx.req, { originalUrl: url });
    ctx.req.url = url.slice(prefix.length) || '/';
    ctx.respond = false;
    try {
      await handle(ctx.req, ctx.res);
    } finally {
      ctx.req.url = url;
      ctx.status = ctx.res.statusCode;
    }
  };
}
