import type { JwtTickets } from '@tessera/core/modules/tokens';
import type { Context } from 'koa';
import type { HttpModule } from '../../http-module.js';
import type { HttpOptions } from '../../http-options.js';
import { optionalFlag } from '../../request/parameter-schemas.js';
import { serverUrl } from '../../request/request-url.js';

const TOKEN = 'Answer the TGT as a JWT (tokens module).';

/**
 * The `tokens` module (docs/protocol.md §6): no route of its own; TGTs and STs as JWTs. POST /v1/tickets
 * answers the TGT as a JWT with `token=true` (parameter, else header), a `jwtAsServiceTicket` service
 * gets its STs as JWTs, and a JWT is accepted wherever a ticket id is read.
 */
export function tokensModule(tokens: JwtTickets): HttpModule {
  return {
    name: 'tokens',
    extensions: (http) => ({
      ticketEncoding: {
        request: {
          parameters: { token: optionalFlag(`${TOKEN} Read before the \`token\` header.`) },
          headers: { token: optionalFlag(`${TOKEN} Read when the parameter is absent or blank.`) },
        },
        requested: ({ parameters, headers }) => Boolean(parameters['token'] ?? headers['token']),
        ticketGrantingTicket: (ctx, tgt, sentParameters) => tokens.ticketGrantingTicket(tgt, issuer(tokens, http.options, ctx), sentParameters),
        encodesServiceTicketsFor: (service) => tokens.wantsJwtServiceTicket(service),
        serviceTicket: (ctx, granted) => tokens.serviceTicket(granted, issuer(tokens, http.options, ctx)),
        ticketId: (idOrToken) => tokens.ticketId(idOrToken),
        described: {
          requested: 'with `token`',
          ticketGrantingTicket: 'the TGT as a JWT',
          serviceTicket: 'the ST as a JWT for a service with `jwtAsServiceTicket`',
        },
      },
    }),
  };
}

/** `iss` of our JWTs: the configured issuer, else the server's URL (from `publicUrl`, or the allowed host the client came by). */
function issuer(tokens: JwtTickets, options: HttpOptions, ctx: Context): string {
  return tokens.issuer ?? serverUrl(ctx, options);
}
