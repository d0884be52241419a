import type { Authentication } from '../authentication/authentication.js';

/** The single sign-on session. Times are epoch milliseconds. */
export interface TicketGrantingTicket {
  readonly kind: 'TGT';
  readonly id: string;
  readonly authentication: Authentication;
  readonly createdAt: number;
  /** Hard limit (maxTimeToLive): the TGT dies then, however active. */
  readonly hardExpiresAt: number;
  /** Effective expiry: min(last use + timeToKill, hardExpiresAt). Slides each time the TGT grants an ST. */
  readonly expiresAt: number;
  /** How many STs this TGT has granted; the first one counts as a fresh login. */
  readonly servicesGranted: number;
  /**
   * Started by a login for a service with its own session lifetime (its ticketGrantingTicketExpirationPolicy):
   * no idle window, `expiresAt` is `hardExpiresAt` from the start and never slides. Absent otherwise.
   */
  readonly hardTimeout?: true;
}

/** A one-time ticket for one service, bound to the TGT that granted it. */
export interface ServiceTicket {
  readonly kind: 'ST';
  readonly id: string;
  readonly tgtId: string;
  /** The service URL exactly as it was requested. */
  readonly service: string;
  /** Issued from a fresh login: renew with credentials, or the first ST of a new TGT. */
  readonly fromNewLogin: boolean;
  /** When the authentication behind this ticket happened (the renewal, if renewed). */
  readonly authenticatedAt: number;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** Validations it still takes, when its service grants more than one (numberOfUses above 1); absent: one. Each consume takes one. */
  readonly usesLeft?: number;
}

/**
 * A proxy-granting ticket (CAS protocol 3.0 §3.3): lets the service it was delivered to (a proxy) get
 * proxy tickets for other services on the user's behalf. Part of its login session: it lives no longer
 * than the session's TGT, dies with it, and each proxy ticket it grants counts as a use of the session.
 */
export interface ProxyGrantingTicket {
  readonly kind: 'PGT';
  readonly id: string;
  /** The login session (the root TGT), whatever the length of the proxy chain. */
  readonly tgtId: string;
  /** The service URL of the validated ticket it was issued on: the proxying service. */
  readonly service: string;
  /** The proxy callback URLs it speaks for, most recent first: its own pgtUrl, then those of the tickets before it. */
  readonly proxies: readonly string[];
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** A one-time ticket a proxy got from its PGT for one target service (CAS protocol 3.0 §3.2). */
export interface ProxyTicket {
  readonly kind: 'PT';
  readonly id: string;
  /** The login session (the root TGT). */
  readonly tgtId: string;
  /** The PGT that granted it. */
  readonly grantedBy: string;
  /** The target service URL exactly as it was requested. */
  readonly service: string;
  /** The proxies it passed through, most recent first (the granting PGT's). */
  readonly proxies: readonly string[];
  /** When the authentication behind the session happened. */
  readonly authenticatedAt: number;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** Validations it still takes, when its target service grants more than one; absent: one. Each consume takes one. */
  readonly usesLeft?: number;
}

/** A ticket granted under a TGT: everything a logout of that TGT removes with it. */
export type DescendantTicket = ServiceTicket | ProxyGrantingTicket | ProxyTicket;
/** A one-time ticket a service validates. */
export type ValidatableTicket = ServiceTicket | ProxyTicket;

export type Ticket = TicketGrantingTicket | DescendantTicket;
export type TicketKind = Ticket['kind'];
