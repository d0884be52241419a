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
}

export type Ticket = TicketGrantingTicket | ServiceTicket;
export type TicketKind = Ticket['kind'];
