import type { RequestOrigin } from '../../domain/events.js';
import { selectService } from '../../domain/registry/service-matcher.js';
import type { ServiceTypes } from '../../domain/registry/service-types.js';
import { wantsBackChannelLogout, wantsSingleLogout, type RegisteredService } from '../../domain/registry/registered-service.js';
import { ticketFingerprint } from '../../domain/tickets/fingerprint.js';
import type { TicketGrantingTicket } from '../../domain/tickets/ticket.js';
import type { Clock } from '../../ports/clock.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { ServiceRegistry } from '../../ports/service-registry.js';
import type { GrantedTicket, SessionListener } from '../../ports/session-listener.js';
import type { TicketStore } from '../../ports/ticket-store.js';
import type { LogoutRequestDroppedEvent, LogoutTrigger } from './events.js';
import { frontChannelLogoutRequest, logoutRequestXml } from './logout-request.js';
import type { ServiceSession, ServiceSessionStore } from './service-session-store.js';

/** One back-channel logout request to deliver. */
export interface LogoutDelivery {
  /** Where it goes: the service's `logoutUrl`, else the URL its ticket was issued for. */
  readonly url: string;
  /** The `logoutRequest` form parameter: the SAML LogoutRequest naming the session's ticket. */
  readonly logoutRequest: string;
  readonly session: ServiceSession;
  readonly trigger: LogoutTrigger;
  /** The request that ended the session; none for an expiry. */
  readonly origin?: RequestOrigin;
}

/**
 * Delivers logout requests on its own time (a timeout per attempt, bounded retries, a bounded number
 * in flight at once), reporting each outcome as an event. `send` returns at once and never throws: a
 * service that is slow or down never holds up the user's request.
 */
export interface LogoutRequestSender {
  send(delivery: LogoutDelivery): void;
}

/**
 * A front-channel logout request (`logoutType: FRONT_CHANNEL`): the browser on the logout page calls
 * `url` with the query parameter `logoutRequest` (deflated, base64), so the service ends its session.
 */
export interface FrontChannelLogout {
  /** The service's `logoutUrl`, else the URL its ticket was issued for. */
  readonly url: string;
  readonly logoutRequest: string;
  readonly session: ServiceSession;
}

/** How many due records one round of `endExpired` looks at. */
export const EXPIRY_BATCH = 100;

/** How many services a login session keeps to tell, unless configured otherwise. */
export const DEFAULT_MAX_PER_SESSION = 100;

/**
 * Single logout (CAS SLO). Each ticket a service with `logoutType` `BACK_CHANNEL` or `FRONT_CHANNEL` validates
 * is recorded under its TGT (a ticket never validated opened no session in the service, so it is not),
 * at most `maxPerSession` per TGT: past that the oldest record is dropped, and reported. When the TGT
 * ends, each recorded service still registered and still opted in gets a logout request: a
 * back-channel one from the server, a front-channel one through the browser that logs out
 * (`endForBrowser`; a session ended without a browser, by REST or an expiry, cannot reach them). A logout
 * ends a TGT at once; an expiry is found by `endExpired`, which a node runs periodically: records
 * whose check time has passed are looked up, a TGT still alive postpones its record to its current
 * expiry, a TGT gone ends it. `take` is atomic, so however many nodes look, each service is told once.
 */
export class SingleLogout implements SessionListener {
  constructor(
    private readonly sessions: ServiceSessionStore,
    private readonly tickets: TicketStore,
    private readonly registry: ServiceRegistry,
    /** Which services CAS service URLs find (the sessions recorded are of CAS service URLs). */
    private readonly serviceTypes: ServiceTypes,
    private readonly sender: LogoutRequestSender,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly events: EventSink,
    private readonly maxPerSession = DEFAULT_MAX_PER_SESSION,
  ) {}

  async validated(tgt: TicketGrantingTicket, ticket: GrantedTicket, service: RegisteredService, origin?: RequestOrigin): Promise<void> {
    if (!wantsSingleLogout(service)) return;
    const principal = tgt.authentication.principal.id;
    const dropped = await this.sessions.add(tgt.id, { ticketId: ticket.id, service: ticket.service, principal }, tgt.expiresAt, this.maxPerSession);
    for (const old of dropped) {
      this.events.emit({ type: 'logout.request.dropped', service: old.service, ticket: ticketFingerprint(old.ticketId), principal: old.principal, limit: this.maxPerSession } satisfies LogoutRequestDroppedEvent, origin);
    }
    // A logout between the validation's look at the TGT and this add has taken the record already: tell the service now.
    if ((await this.tickets.get(tgt.id))?.kind !== 'TGT') await this.notify(tgt.id, 'logout', origin);
  }

  async ended(tgtId: string, origin?: RequestOrigin): Promise<void> {
    await this.notify(tgtId, 'logout', origin);
  }

  /**
   * A browser logs out of the TGT (before the TGT is destroyed): the back-channel services are told
   * as ever, and the front-channel ones are returned, for the logout page to call through the browser.
   */
  endForBrowser(tgtId: string, origin?: RequestOrigin): Promise<FrontChannelLogout[]> {
    return this.notify(tgtId, 'logout', origin);
  }

  /** Ends the records of TGTs that expired since their check time; returns how many records were due. */
  async endExpired(limit = EXPIRY_BATCH): Promise<number> {
    const due = await this.sessions.due(this.clock.now(), limit);
    for (const tgtId of due) {
      const found = await this.tickets.get(tgtId);
      if (found?.kind === 'TGT') await this.sessions.postpone(tgtId, found.expiresAt);
      else await this.notify(tgtId, 'expiry');
    }
    return due.length;
  }

  /** Tells the TGT's back-channel services; returns its front-channel ones. */
  private async notify(tgtId: string, trigger: LogoutTrigger, origin?: RequestOrigin): Promise<FrontChannelLogout[]> {
    const sessions = await this.sessions.take(tgtId);
    if (sessions.length === 0) return [];
    // The definition as it is now: a service removed or no longer opted in is not told.
    const services = await this.registry.list();
    const now = this.clock.now();
    const frontChannel: FrontChannelLogout[] = [];
    for (const session of sessions) {
      const service = selectService(services, session.service, this.serviceTypes);
      if (!service || !wantsSingleLogout(service)) continue;
      const url = service.logoutUrl ?? session.service;
      const logoutRequest = logoutRequestXml(session.ticketId, now, this.random);
      if (wantsBackChannelLogout(service)) this.sender.send({ url, logoutRequest, session, trigger, ...(origin && { origin }) });
      else frontChannel.push({ url, logoutRequest: frontChannelLogoutRequest(logoutRequest), session });
    }
    return frontChannel;
  }
}
