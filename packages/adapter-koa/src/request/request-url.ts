import type { Context } from 'koa';

/**
 * The absolute URL of this request without its query and trailing slashes, as a servlet's
 * getRequestURL(). Scheme and host honour X-Forwarded-* only when the app trusts its proxy.
 * A client without a Host header (HTTP/1.0) gets the address it connected to.
 */
export function requestUrl(ctx: Context): string {
  const host = ctx.host || localAuthority(ctx);
  return `${ctx.protocol}://${host}${ctx.path.replace(/\/+$/, '')}`;
}

/** The server's own URL as this request reached it: scheme, host and base path (CAS's server prefix). */
export function serverUrl(ctx: Context, basePath: string): string {
  return `${ctx.protocol}://${ctx.host || localAuthority(ctx)}${basePath.replace(/\/+$/, '')}`;
}

function localAuthority(ctx: Context): string {
  const { localAddress = 'localhost', localPort } = ctx.req.socket;
  const address = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  return localPort === undefined ? address : `${address}:${localPort}`;
}
