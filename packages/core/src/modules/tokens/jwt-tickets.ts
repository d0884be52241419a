import type { AttributeMap } from '../../domain/authentication/principal.js';
import type { RegisteredService } from '../../domain/registry/registered-service.js';
import type { TicketGrantingTicket } from '../../domain/tickets/ticket.js';
import type { Clock } from '../../ports/clock.js';
import type { ReleaseToRelyingParty } from '../../use-cases/relying-party-access.js';
import type { JwtClaims, TicketCodec } from './ticket-codec.js';
import type { GrantedServiceTicket } from '../../use-cases/grant-service-ticket.js';

/** The one claim holding the request parameters an operator chose to copy (`tokens.requestParameters`). */
export const REQUEST_PARAMETERS_CLAIM = 'requestParameters';

/** The service property (Apereo CAS's `jwtAsServiceTicket`) that turns a service's STs into JWTs. */
const JWT_AS_SERVICE_TICKET = 'jwtAsServiceTicket';

/**
 * The tokens module (docs/protocol.md §6): TGTs and STs as JWTs whose `jti` is a stored ticket, so the
 * store keeps deciding what lives. A JWT ST is single use because its `jti` is an ordinary ST.
 */
export class JwtTickets {
  constructor(
    private readonly codec: TicketCodec,
    private readonly clock: Clock,
    /** What a service's JWT STs say of the user: the relying-party path's answer (its username provider and release policy). */
    private readonly release: ReleaseToRelyingParty,
    /** `iss` and the TGT's `aud`; unset, the adapter uses the server's URL as requested. */
    readonly issuer: string | undefined,
    /** Request parameters copied into the REQUEST_PARAMETERS_CLAIM object; none by default. Never credentials (the configuration refuses them). */
    private readonly copiedParameters: readonly string[] = [],
  ) {}

  /**
   * `token=true` on POST /v1/tickets: the stored TGT as a JWT. Claims come from the principal and the
   * server; of the request's `parameters` only the copied ones appear, inside their one claim, which an
   * attribute of the same name and the registered claims are written over: nothing a client sends can
   * change what the token says about the user or its validity.
   */
  ticketGrantingTicket(tgt: TicketGrantingTicket, issuer: string, parameters: Readonly<Record<string, string>>): Promise<string> {
    const copied: Record<string, string> = {};
    for (const name of this.copiedParameters) {
      const value = parameters[name];
      if (Object.hasOwn(parameters, name) && value !== undefined) copied[name] = value;
    }
    return this.codec.encode({
      ...(Object.keys(copied).length > 0 && { [REQUEST_PARAMETERS_CLAIM]: copied }),
      ...attributeClaims(tgt.authentication.principal.attributes),
      sub: tgt.authentication.principal.id,
      jti: tgt.id,
      iss: issuer,
      aud: issuer,
      iat: seconds(tgt.authentication.authenticatedAt),
      exp: seconds(tgt.hardExpiresAt),
    });
  }

  /**
   * An ST for a `jwtAsServiceTicket` service, valid as long as the ST: `sub` is the user name the
   * service sees, the claims what its policy releases of the principal's attributes (the
   * authentication's attributes belong to validation answers only).
   */
  async serviceTicket({ ticket, service, principal }: GrantedServiceTicket, issuer: string): Promise<string> {
    const { username: user, attributes: released } = await this.release({ service, url: ticket.service, principal });
    return this.codec.encode({
      ...attributeClaims(released),
      sub: user,
      jti: ticket.id,
      iss: issuer,
      aud: ticket.service,
      iat: seconds(this.clock.now()),
      exp: seconds(ticket.expiresAt),
    });
  }

  wantsJwtServiceTicket(service: RegisteredService): boolean {
    return (service.properties[JWT_AS_SERVICE_TICKET] ?? []).some((value) => value.trim().toLowerCase() === 'true');
  }

  /**
   * The ticket id a client sent, or the verified `jti` when it sent one of our JWTs instead. A JWT
   * that fails verification is returned as is: no ticket has that id, so it is simply unknown.
   */
  async ticketId(idOrToken: string): Promise<string> {
    if (!looksLikeJws(idOrToken)) return idOrToken;
    try {
      const { jti } = await this.codec.decode(idOrToken);
      return typeof jti === 'string' ? jti : idOrToken;
    } catch {
      return idOrToken;
    }
  }
}

/**
 * For a service that receives a JWT ST: verifies the signature (HS512 only), decrypts (`dir` with the
 * configured content encryption only), and checks that `aud` is this service and `exp` has not passed.
 * Throws InvalidTokenError otherwise. Single use is the server's to enforce (docs/modules/tokens.md, "Verifying a JWT service ticket in a service").
 */
export function verifyJwtServiceTicket(codec: TicketCodec, token: string, service: string): Promise<JwtClaims> {
  return codec.decode(token, { audience: service });
}

/** Ticket ids hold no dots; a compact JWS holds exactly two. */
function looksLikeJws(text: string): boolean {
  return text.split('.').length === 3;
}

/** One claim per attribute: a single value unwrapped, several as an array, none dropped (CAS's JwtBuilder). */
function attributeClaims(attributes: AttributeMap): Record<string, string | readonly string[]> {
  const claims: Record<string, string | readonly string[]> = {};
  for (const [name, values] of Object.entries(attributes)) {
    if (values.length === 1 && values[0] !== undefined) claims[name] = values[0];
    else if (values.length > 1) claims[name] = values;
  }
  return claims;
}

function seconds(epochMs: number): number {
  return Math.floor(epochMs / 1000);
}
