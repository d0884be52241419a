import type { Credential } from '../domain/authentication/credential.js';
import type { Principal } from '../domain/authentication/principal.js';
import type { RequestOrigin } from '../domain/events.js';
import { AuthenticationFailedError, InvalidRequestError, NoCredentialsError, TicketNotFoundError } from '../domain/errors.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import { ticketFingerprint } from '../domain/tickets/fingerprint.js';
import { slidTgtExpiry, type TicketLifetimes } from '../domain/tickets/lifetimes.js';
import type { ServiceTicket } from '../domain/tickets/ticket.js';
import type { TicketIdGenerator } from '../domain/tickets/ticket-ids.js';
import type { Clock } from '../ports/clock.js';
import type { EventSink } from '../ports/event-sink.js';
import type { TicketStore } from '../ports/ticket-store.js';
import type { Authenticator } from './authenticator.js';
import type { ServiceAccess } from './service-access.js';

export const RENEW_PRINCIPAL_MISMATCH = 'Renewed credentials identify a different principal than the ticket-granting ticket.';
export const SSO_NOT_ALLOWED = 'The service does not take part in single sign-on; request it with renew=true and credentials.';

export interface GrantServiceTicketInput {
  readonly tgtId: string;
  readonly service: string | undefined;
  /** renew=true: the request must carry credentials of the TGT's principal. */
  readonly renew: boolean;
  readonly credentials: readonly Credential[];
  /** The request asking, reported with the events. */
  readonly origin?: RequestOrigin;
}

export interface GrantedServiceTicket {
  readonly ticket: ServiceTicket;
  readonly service: RegisteredService;
  /** Whom the ticket speaks for: the TGT's principal. */
  readonly principal: Principal;
}

/** POST /v1/tickets/{tgt}: trade a live TGT for a one-time ST bound to a registered service. */
export class GrantServiceTicket {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly access: ServiceAccess,
    private readonly tickets: TicketStore,
    private readonly ids: TicketIdGenerator,
    private readonly clock: Clock,
    private readonly lifetimes: TicketLifetimes,
    private readonly events: EventSink,
  ) {}

  async execute(input: GrantServiceTicketInput): Promise<GrantedServiceTicket> {
    if (input.service === undefined || input.service.trim() === '') throw new InvalidRequestError("The 'service' parameter is required");
    const found = await this.tickets.get(input.tgtId);
    if (found?.kind !== 'TGT') throw new TicketNotFoundError();
    const service = await this.access.require(input.service);

    let authenticatedAt = found.authentication.authenticatedAt;
    let renewed = false;
    if (input.renew) {
      if (input.credentials.length === 0) throw new NoCredentialsError();
      const renewal = await this.authenticator.authenticate(input.credentials, input.origin);
      if (renewal.principal.id !== found.authentication.principal.id) throw new AuthenticationFailedError([RENEW_PRINCIPAL_MISMATCH]);
      authenticatedAt = renewal.authenticatedAt;
      renewed = true;
    }
    if (!service.accessStrategy.ssoEnabled && !renewed) throw new AuthenticationFailedError([SSO_NOT_ALLOWED]);
    this.access.requirePrincipal(service, found.authentication.principal);

    const now = this.clock.now();
    const tgt = await this.tickets.touch(found.id, slidTgtExpiry(found, now, this.lifetimes));
    if (!tgt) throw new TicketNotFoundError();
    const ticket: ServiceTicket = {
      kind: 'ST',
      id: this.ids.next('ST'),
      tgtId: tgt.id,
      service: input.service,
      fromNewLogin: renewed || tgt.servicesGranted === 1,
      authenticatedAt,
      createdAt: now,
      expiresAt: now + this.lifetimes.stTimeToLiveSeconds * 1000,
    };
    await this.tickets.save(ticket);
    this.events.emit(
      { type: 'ticket.created', kind: 'ST', ticket: ticketFingerprint(ticket.id), principal: tgt.authentication.principal.id, service: input.service },
      input.origin,
    );
    return { ticket, service, principal: tgt.authentication.principal };
  }
}
