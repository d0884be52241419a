import type { Authentication } from '../domain/authentication/authentication.js';
import type { Credential } from '../domain/authentication/credential.js';
import type { TesseraError } from '../domain/errors.js';
import type { RequestOrigin, TicketRefusalReason } from '../domain/events.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import { sessionMaxTimeToLiveSeconds } from '../domain/registry/ticket-expiration.js';
import type { TicketGrantingTicket } from '../domain/tickets/ticket.js';
import type { TicketLifetimes } from '../domain/tickets/lifetimes.js';
import type { TicketIdGenerator } from '../domain/tickets/ticket-ids.js';
import { ticketFingerprint } from '../domain/tickets/fingerprint.js';
import type { Clock } from '../ports/clock.js';
import type { EventSink } from '../ports/event-sink.js';
import type { SessionListener } from '../ports/session-listener.js';
import type { TicketStore } from '../ports/ticket-store.js';
import type { Authenticator } from './authenticator.js';
import type { RelyingPartyAccess } from './relying-party-access.js';

export interface CreateTicketGrantingTicketInput {
  readonly credentials: readonly Credential[];
  /** When given, the service must be registered (403) and the principal allowed by it (401). */
  readonly service?: string;
  /** The request asking, reported with the events. */
  readonly origin?: RequestOrigin;
}

/** POST /v1/tickets: authenticate, optionally check the service, store a new TGT (and tell the session listener). */
export class CreateTicketGrantingTicket {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly access: RelyingPartyAccess,
    private readonly tickets: TicketStore,
    private readonly ids: TicketIdGenerator,
    private readonly clock: Clock,
    private readonly lifetimes: TicketLifetimes,
    private readonly events: EventSink,
    private readonly listener?: SessionListener,
  ) {}

  async execute(input: CreateTicketGrantingTicketInput): Promise<TicketGrantingTicket> {
    const { service: url, origin } = input;
    const authentication = await this.authenticator.authenticate(input.credentials, origin);
    if (url !== undefined) {
      // The trail shows the login succeeded; this says why no TGT followed.
      const refuse = (reason: TicketRefusalReason, error: TesseraError): never => {
        this.events.emit({ type: 'ticket.refused', kind: 'TGT', reason, service: url, principal: authentication.principal.id }, origin);
        throw error;
      };
      const service = await this.access.require(url, refuse, origin);
      this.access.requirePrincipal(service, authentication.principal, refuse);
      return this.store(authentication, origin, service);
    }
    return this.store(authentication, origin);
  }

  /**
   * A new TGT for a login already made (the login form, which grants its ST apart). A login for a
   * service with its own session lifetime (`ticketGrantingTicketExpiration`) gets that one, as a hard
   * timeout; any other the `tickets.tgt` lifetimes.
   */
  async store(authentication: Authentication, origin?: RequestOrigin, service?: Pick<RegisteredService, 'ticketGrantingTicketExpiration'>): Promise<TicketGrantingTicket> {
    const now = this.clock.now();
    const ownLifetime = sessionMaxTimeToLiveSeconds(service?.ticketGrantingTicketExpiration);
    const hardExpiresAt = now + (ownLifetime ?? this.lifetimes.tgtMaxTimeToLiveSeconds) * 1000;
    const tgt: TicketGrantingTicket = {
      kind: 'TGT',
      id: this.ids.next('TGT'),
      authentication,
      createdAt: now,
      hardExpiresAt,
      expiresAt: ownLifetime === undefined ? Math.min(now + this.lifetimes.tgtTimeToKillSeconds * 1000, hardExpiresAt) : hardExpiresAt,
      servicesGranted: 0,
      ...(ownLifetime !== undefined && { hardTimeout: true }),
    };
    await this.tickets.save(tgt);
    this.events.emit({ type: 'ticket.created', kind: 'TGT', ticket: ticketFingerprint(tgt.id), principal: authentication.principal.id }, origin);
    await this.listener?.started?.(tgt, origin);
    return tgt;
  }
}
