import { InvalidRequestError } from '@tessera/core';
import type { Context, Middleware, Next } from 'koa';
import type { HttpOptions } from '../http-options.js';

/** The default `allowedHosts`: reflecting a loopback name can only ever point a client back at its own machine. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** A host as `Host` carries it: a DNS name or IPv4 address, or an IPv6 address in brackets; then an optional port. */
export const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/i;

interface Host {
  readonly name: string;
  readonly port: string | undefined;
}

function parseHost(text: string): Host | undefined {
  const match = HOST_PATTERN.exec(text);
  return match?.[1] === undefined ? undefined : { name: match[1].toLowerCase(), port: match[2] };
}

/** An entry without a port allows the name on any port. */
function isAllowed(host: Host, allowedHosts: readonly (Host | undefined)[]): boolean {
  return allowedHosts.some((allowed) => allowed?.name === host.name && (allowed.port === undefined || allowed.port === host.port));
}

/**
 * In front of every route. Without `publicUrl`, absolute URLs are built from the request's host
 * (`Host`, or `X-Forwarded-Host` behind a trusted proxy) and scheme, which the client chooses: a host
 * outside `allowedHosts`, or a forwarded scheme other than http(s), is refused with 400 before
 * anything else is done. With `publicUrl` nothing from the request is reflected, so nothing is checked.
 */
export function refuseUnservedHosts(options: HttpOptions): Middleware {
  if (options.publicUrl !== undefined) {
    return function refuseUnservedHost(_ctx: Context, next: Next) {
      return next();
    };
  }
  const allowedHosts = options.allowedHosts.map(parseHost);
  return function refuseUnservedHost(ctx: Context, next: Next) {
    const sent = ctx.host;
    const host = parseHost(sent);
    if (sent !== '' && host === undefined) throw new InvalidRequestError('The request’s host is not a host name.');
    if (host && !isAllowed(host, allowedHosts)) {
      throw new InvalidRequestError(`The host '${sent}' is not served here: it is not in server.allowedHosts, and server.publicUrl is not set.`);
    }
    if (ctx.protocol !== 'http' && ctx.protocol !== 'https') throw new InvalidRequestError('The forwarded scheme is neither http nor https.');
    return next();
  };
}

/** Scheme and host of this server as clients reach it: `publicUrl`, else the request's own (allowed) ones. */
function publicOrigin(ctx: Context, options: HttpOptions): string {
  return options.publicUrl ?? `${ctx.protocol}://${ctx.host.toLowerCase() || localAuthority(ctx)}`;
}

/** The host name clients reach this server by (the SAML Issuer, as CAS's default). */
export function publicHostName(ctx: Context, options: HttpOptions): string {
  return new URL(publicOrigin(ctx, options)).hostname;
}

/** The absolute URL of this request without its query and trailing slashes, as a servlet's getRequestURL(). */
export function requestUrl(ctx: Context, options: HttpOptions): string {
  return `${publicOrigin(ctx, options)}${ctx.path.replace(/\/+$/, '')}`;
}

/** The server's own URL: scheme, host and base path (CAS's server prefix). */
export function serverUrl(ctx: Context, options: HttpOptions): string {
  return `${publicOrigin(ctx, options)}${options.basePath}`;
}

/** A client without a Host header (HTTP/1.0) gets the address it connected to. */
function localAuthority(ctx: Context): string {
  const { localAddress = 'localhost', localPort } = ctx.req.socket;
  const address = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  return localPort === undefined ? address : `${address}:${localPort}`;
}
