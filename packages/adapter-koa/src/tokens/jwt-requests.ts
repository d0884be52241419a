import type { JwtTickets } from '@tessera/core';
import type { Context } from 'koa';
import type { HttpContext } from '../http-module.js';
import { serverUrl } from '../request/request-url.js';

/** `iss` of our JWTs: the configured issuer, else the server's URL (from `publicUrl`, or the allowed host the client came by). */
export function issuer(tokens: JwtTickets, http: HttpContext, ctx: Context): string {
  return tokens.issuer ?? serverUrl(ctx, http.options);
}

/** A ticket id from the path or query, where a client may send our JWT instead (docs/protocol.md §6). */
export function ticketIdOf(http: HttpContext, idOrToken: string): Promise<string> {
  return http.tokens ? http.tokens.ticketId(idOrToken) : Promise.resolve(idOrToken);
}
