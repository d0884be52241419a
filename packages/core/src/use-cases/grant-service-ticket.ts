import type { Authentication } from '../domain/authentication/authentication.js';
import type { Credential } from '../domain/authentication/credential.js';
import type { Principal } from '../domain/authentication/principal.js';
import { AuthenticationFailedError, InvalidRequestError, NoCredentialsError, TicketNotFoundError, type TesseraError } from '../domain/errors.js';
import type { RequestOrigin, TicketRefusalReason } from '../domain/events.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import { ticketTimeToLiveSeconds, ticketUses } from '../domain/registry/ticket-expiration.js';
import { ticketFingerprint } from '../domain/tickets/fingerprint.js';
import { slidTgtExpiry, type TicketLifetimes } from '../domain/tickets/lifetimes.js';
import type { ServiceTicket, TicketGrantingTicket } from '../domain/tickets/ticket.js';
import type { TicketIdGenerator } from '../domain/tickets/ticket-ids.js';
import type { Clock } from '../ports/clock.js';
import type { EventSink } from '../ports/event-sink.js';
import type { TicketStore } from '../ports/ticket-store.js';
import type { Authenticator } from './authenticator.js';
import type { RelyingPartyAccess } from './relying-party-access.js';

export const RENEW_PRINCIPAL_MISMATCH = 'Renewed credentials identify a different principal than the ticket-granting ticket.';

export interface GrantServiceTicketInput {
  readonly tgtId: string;
  readonly service: string | undefined;
  /** renew=true: the request must carry credentials of the TGT's principal. */
  readonly renew: boolean;
  readonly credentials: readonly Credential[];
  /**
   * A login this request already made (the login form): it counts as renew with credentials, without
   * checking them a second time (a one-time password works once).
   */
  readonly renewal?: Authentication;
  /**
   * REST (docs/protocol.md §3.3): a TGT's first ST also counts as from a new login when it is granted
   * within this many seconds of the login, for the client that logs in and at once asks for its ticket.
   * Without it only a renewal counts, so a ticket of single sign-on never does.
   */
  readonly firstTicketWithinSeconds?: number;
  /** The request asking, reported with the events. */
  readonly origin?: RequestOrigin;
}

export interface GrantedServiceTicket {
  readonly ticket: ServiceTicket;
  readonly service: RegisteredService;
  /** Whom the ticket speaks for: the TGT's principal. */
  readonly principal: Principal;
}

/**
 * Asked once a grant passed every check and before its ticket is made: true holds the ticket back, for
 * a page the browser must show first (a module's page before a service ticket, such as a consent).
 */
export type HoldServiceTicket = (request: { readonly service: RegisteredService; readonly url: string; readonly authentication: Authentication }) => Promise<boolean>;

/** A grant held back by HoldServiceTicket: no ticket was made, and the service it was for. */
export interface HeldServiceTicket {
  readonly held: RegisteredService;
}

/** POST /v1/tickets/{tgt}: trade a live TGT for a one-time ST bound to a registered service. */
export class GrantServiceTicket {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly access: RelyingPartyAccess,
    private readonly tickets: TicketStore,
    private readonly ids: TicketIdGenerator,
    private readonly clock: Clock,
    private readonly lifetimes: TicketLifetimes,
    private readonly events: EventSink,
  ) {}

  async execute(input: GrantServiceTicketInput): Promise<GrantedServiceTicket> {
    const granted = await this.grant(input);
    if ('held' in granted) throw new Error('A grant without a hold was held.');
    return granted;
  }

  /** As execute, asking `hold` once every check passed: a ticket it holds back is not made. */
  executeUnlessHeld(input: GrantServiceTicketInput, hold: HoldServiceTicket): Promise<GrantedServiceTicket | HeldServiceTicket> {
    return this.grant(input, hold);
  }

  private async grant(input: GrantServiceTicketInput, hold?: HoldServiceTicket): Promise<GrantedServiceTicket | HeldServiceTicket> {
    const { service: url, origin } = input;
    if (url === undefined || url.trim() === '') throw new InvalidRequestError("The 'service' parameter is required");
    // Every refusal from here on is reported: which TGT asked for which service, and whose it was once found.
    const refuse = (reason: TicketRefusalReason, error: TesseraError, owner?: Principal): never => {
      this.events.emit({ type: 'ticket.refused', kind: 'ST', reason, service: url, tgt: ticketFingerprint(input.tgtId), ...(owner && { principal: owner.id }) }, origin);
      throw error;
    };
    const found = await this.tickets.get(input.tgtId);
    if (found?.kind !== 'TGT') return refuse('TGT_NOT_FOUND', new TicketNotFoundError());
    const owner = found.authentication.principal;
    const refuseOwner = (reason: TicketRefusalReason, error: TesseraError): never => refuse(reason, error, owner);
    const service = await this.access.require(url, refuseOwner, origin);

    let renewal = input.renewal;
    if (input.renew && !renewal) {
      if (input.credentials.length === 0) refuseOwner('RENEW_WITHOUT_CREDENTIALS', new NoCredentialsError());
      renewal = await this.authenticator.authenticate(input.credentials, origin);
    }
    if (renewal && renewal.principal.id !== owner.id) refuseOwner('RENEW_PRINCIPAL_MISMATCH', new AuthenticationFailedError([RENEW_PRINCIPAL_MISMATCH]));
    const renewed = renewal !== undefined;
    const authenticatedAt = renewal?.authenticatedAt ?? found.authentication.authenticatedAt;
    const admission = await this.access.admit({ service, authentication: renewal ?? found.authentication, renewed, ...(origin && { origin }) });
    if (!admission.admitted) return refuseOwner(admission.reason, admission.error);
    if (admission.factorSkipped !== undefined && admission.factorSkipped !== 'NONE') {
      this.events.emit({ type: 'ticket.secondFactorSkipped', service: service.name, principal: owner.id, failureMode: admission.factorSkipped }, origin);
    }
    if (hold && (await hold({ service, url, authentication: found.authentication }))) return { held: service };

    const now = this.clock.now();
    const tgt = await this.tickets.touch(found.id, slidTgtExpiry(found, now, this.lifetimes));
    // It expired or was destroyed since it was read.
    if (!tgt) return refuseOwner('TGT_NOT_FOUND', new TicketNotFoundError());
    const ticket: ServiceTicket = {
      kind: 'ST',
      id: this.ids.next('ST', tgt.id),
      tgtId: tgt.id,
      service: url,
      fromNewLogin: renewed || isFirstTicketOfFreshLogin(tgt, now, input.firstTicketWithinSeconds),
      authenticatedAt,
      createdAt: now,
      expiresAt: now + ticketTimeToLiveSeconds(service.serviceTicketExpiration, this.lifetimes.stTimeToLiveSeconds) * 1000,
      ...ticketUses(service.serviceTicketExpiration),
    };
    await this.tickets.save(ticket);
    this.events.emit(
      { type: 'ticket.created', kind: 'ST', ticket: ticketFingerprint(ticket.id), principal: tgt.authentication.principal.id, service: url },
      origin,
    );
    return { ticket, service, principal: tgt.authentication.principal };
  }
}

/** The TGT's first grant (touch has counted it), within `withinSeconds` of the login behind it. */
function isFirstTicketOfFreshLogin(tgt: TicketGrantingTicket, now: number, withinSeconds: number | undefined): boolean {
  return withinSeconds !== undefined && tgt.servicesGranted === 1 && now < tgt.authentication.authenticatedAt + withinSeconds * 1000;
}
