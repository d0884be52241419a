import type { CredentialType } from '../domain/authentication/credential.js';
import type { AttributeMap } from '../domain/authentication/principal.js';
import { TicketValidationError, type CasFailureCode } from '../domain/errors.js';
import type { RequestOrigin } from '../domain/events.js';
import { supportsProtocol, type RegisteredService, type ValidationProtocol } from '../domain/registry/registered-service.js';
import { principalMeetsRequirements } from '../domain/registry/service-matcher.js';
import { sameService } from '../domain/service-url.js';
import { ticketFingerprint } from '../domain/tickets/fingerprint.js';
import type { EventSink } from '../ports/event-sink.js';
import type { SessionListener } from '../ports/session-listener.js';
import type { TicketGrantingTicket, ValidatableTicket } from '../domain/tickets/ticket.js';
import type { TicketStore } from '../ports/ticket-store.js';
import type { RelyingPartyAccess } from './relying-party-access.js';

export interface ValidateServiceTicketInput {
  readonly ticket: string | undefined;
  readonly service: string | undefined;
  /** renew=true: only an ST issued from a fresh login validates. */
  readonly renew: boolean;
  /** The proxy paths (/proxyValidate, /p3/proxyValidate) also validate PTs; every other path refuses them. */
  readonly proxyTickets?: boolean;
  /** The protocol of the endpoint asking: a service that lists its `supportedProtocols` validates only with those. */
  readonly protocol?: ValidationProtocol;
  /** The request asking, reported with the events. */
  readonly origin?: RequestOrigin;
}

/** A login handed over to a protocol module by the ST /login issued for its URL. */
export interface HandedOverLogin {
  readonly tgt: TicketGrantingTicket;
  /** The relying party's registered service, as the ticket's URL resolved. */
  readonly service: RegisteredService;
  /** The ST came from a login of its own request (the form, renew), not from single sign-on. */
  readonly fromNewLogin: boolean;
  /** When the login behind it happened (epoch ms). */
  readonly authenticatedAt: number;
}

export interface ValidatedServiceTicket {
  /** The user name the service sees (its username provider's; the principal id by default). */
  readonly user: string;
  /** What the service's release policy releases of the principal's attributes and the authentication's. */
  readonly attributes: AttributeMap;
  readonly service: RegisteredService;
  /** When the authentication behind the ticket happened (epoch ms): SAML's AuthenticationInstant. */
  readonly authenticatedAt: number;
  /** Types of the credentials that authenticated the session, in order: SAML's AuthenticationMethod. */
  readonly credentialTypes: readonly CredentialType[];
  /** The proxies a PT passed through, most recent first (`cas:proxies`); empty for an ST. */
  readonly proxies: readonly string[];
  /** The ticket validated (now used up) and its login session, for a PGT asked for with it. */
  readonly ticket: ValidatableTicket;
  readonly tgt: TicketGrantingTicket;
}

/** Longest ticket or service text echoed back in a failure description. */
const ECHO_LIMIT = 256;

/**
 * The CAS validation endpoints. The ST (or PT) is consumed first and atomically, whatever the outcome,
 * so a ticket gets exactly one attempt per use (CAS protocol §3.1.1; more than one only where its
 * service's numberOfUses says so): a wrong service burns a use too, and so does a PT presented where
 * only STs are validated.
 */
export class ValidateServiceTicket {
  constructor(
    private readonly tickets: TicketStore,
    private readonly access: RelyingPartyAccess,
    private readonly events: EventSink,
    private readonly listener?: SessionListener,
  ) {}

  async execute(input: ValidateServiceTicketInput): Promise<ValidatedServiceTicket> {
    const { st, tgt, registered, fromNewLogin, fail, echo } = await this.redeem(input, false);
    const principal = tgt.authentication.principal;
    const { service, origin } = input;
    // As CAS: a protocol the service does not list fails as a ticket that does not validate here.
    if (input.protocol !== undefined && !supportsProtocol(registered, input.protocol)) {
      return fail('INVALID_TICKET', `Ticket '${echo}' does not validate with ${input.protocol}: the service supports ${(registered.supportedProtocols ?? []).join(', ')}`, principal.id);
    }
    const { username: user, attributes } = await this.access.release({
      service: registered,
      url: st.service,
      principal,
      validation: { fromNewLogin, authenticatedAt: st.authenticatedAt, authentication: tgt.authentication },
    });
    // The service now holds a session of this login: single logout records it before the service hears of it.
    await this.listener?.validated(tgt, st, registered, origin);
    this.events.emit({ type: 'ticket.validated', ticket: ticketFingerprint(st.id), principal: principal.id, service: service ?? st.service }, origin);
    return {
      user,
      attributes,
      service: registered,
      authenticatedAt: st.authenticatedAt,
      credentialTypes: tgt.authentication.credentials.map(({ type }) => type),
      proxies: st.kind === 'PT' ? st.proxies : [],
      ticket: st,
      tgt,
    };
  }

  /**
   * A login /login made for a protocol module's relying party, handed over by the ST it issued for the
   * module's own URL (the oidc module's login callback): the ticket is consumed and checked as a CAS
   * validation checks it, but the protocol tells its relying party the rest itself, so nothing is
   * released here and CAS single logout records no session.
   */
  async handOver(input: Omit<ValidateServiceTicketInput, 'protocol' | 'proxyTickets'>): Promise<HandedOverLogin> {
    const { st, tgt, registered, fromNewLogin } = await this.redeem(input, true);
    this.events.emit({ type: 'ticket.validated', ticket: ticketFingerprint(st.id), principal: tgt.authentication.principal.id, service: st.service }, input.origin);
    return { tgt, service: registered, fromNewLogin, authenticatedAt: st.authenticatedAt };
  }

  /**
   * The ticket consumed and checked against its service, its session and its registered service's access
   * rules. A ticket of a protocol module's own URL is handed over to that module only (`throughModule`), and
   * a CAS service's never: neither protocol answers with the other's relying party.
   */
  private async redeem(input: ValidateServiceTicketInput, throughModule: boolean) {
    const { ticket: id, service, origin } = input;
    if (!id || !service) throw new TicketValidationError('INVALID_REQUEST', "'service' and 'ticket' parameters are both required");
    const echo = clipForEcho(id);
    // Once the ticket and its TGT are found, a failure is reported as that principal's.
    const fail = (code: CasFailureCode, message: string, owner?: string): never => {
      this.events.emit({ type: 'ticket.validation.failed', ticket: ticketFingerprint(id), code, service, ...(owner !== undefined && { principal: owner }) }, origin);
      throw new TicketValidationError(code, message);
    };

    const st = await this.tickets.consume(id);
    if (!st) return fail('INVALID_TICKET', `Ticket '${echo}' not recognized`);
    const tgt = await this.tickets.get(st.tgtId);
    const owner = tgt?.kind === 'TGT' ? tgt.authentication.principal.id : undefined;
    if (st.kind === 'PT' && !input.proxyTickets) return fail('INVALID_TICKET', `Ticket '${echo}' is a proxy ticket: validate it at /proxyValidate`, owner);
    if (!sameService(st.service, service)) {
      return fail(
        'INVALID_SERVICE',
        `Ticket '${echo}' does not match supplied service. The original service was '${clipForEcho(st.service)}' and the supplied service was '${clipForEcho(service)}'.`,
        owner,
      );
    }
    if (tgt?.kind !== 'TGT') return fail('INVALID_TICKET', `Ticket '${echo}' not recognized`);
    // A PT lives no longer than the PGT that granted it.
    if (st.kind === 'PT' && (await this.tickets.get(st.grantedBy))?.kind !== 'PGT') return fail('INVALID_TICKET', `Ticket '${echo}' not recognized`, owner);
    const fromNewLogin = st.kind === 'ST' && st.fromNewLogin;
    if (input.renew && !fromNewLogin) return fail('INVALID_TICKET', `Ticket '${echo}' was not issued from a new login, as renew requires`, owner);

    const party = await this.access.locate(st.service, origin);
    if (!party || party.throughModule !== throughModule || !principalMeetsRequirements(party.service, tgt.authentication.principal) || !this.access.allowsLogin(party.service, tgt.authentication)) {
      return fail('UNAUTHORIZED_SERVICE', 'Service is not authorized to use CAS for this user', owner);
    }
    return { st, tgt, registered: party.service, fromNewLogin, fail, echo };
  }
}

/** A ticket id or service URL as a failure description may echo it: long ones cut short. */
export function clipForEcho(text: string): string {
  return text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}…` : text;
}
