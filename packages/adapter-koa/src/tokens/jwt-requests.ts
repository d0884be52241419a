import type { JwtTickets } from '@tessera/core';
import type { Context } from 'koa';
import type { HttpContext } from '../http-module.js';
import { isTruthy } from '../request/flags.js';
import { optionalParameter } from '../request/parameters.js';
import { serverUrl } from '../request/request-url.js';

/** `token=true` as a parameter or, when that is absent or blank, as a request header (CAS's TokenConstants). */
export function wantsTokenResponse(http: HttpContext, ctx: Context): boolean {
  return isTruthy(optionalParameter(http.parameters(ctx), 'token') ?? ctx.get('token'));
}

/** Every request parameter by name; the tokens module turns the non-credential ones into claims. */
export function allParameters(http: HttpContext, ctx: Context): Record<string, string> {
  const parameters = http.parameters(ctx);
  return Object.fromEntries(parameters.names().map((name) => [name, parameters.get(name) ?? '']));
}

/** `iss` of our JWTs: the configured issuer, else the server's URL as the client reached it. */
export function issuer(tokens: JwtTickets, http: HttpContext, ctx: Context): string {
  return tokens.issuer ?? serverUrl(ctx, http.options.basePath);
}

/** A ticket id from the path or query, where a client may send our JWT instead (protocol.md §6). */
export function ticketIdOf(http: HttpContext, idOrToken: string): Promise<string> {
  return http.tokens ? http.tokens.ticketId(idOrToken) : Promise.resolve(idOrToken);
}
