import type { Authentication } from '../domain/authentication/authentication.js';
import type { Ticket, TicketGrantingTicket, ValidatableTicket } from '../domain/tickets/ticket.js';

/**
 * Where tickets live. Every implementation passes the contract suite in @tessera/testkit.
 *
 * Expiry is checked on every read against the store's clock: a ticket whose `expiresAt` is not
 * after now does not exist for any method, whether or not it was physically removed yet (a Mongo
 * TTL index, for one, is garbage collection that may lag a minute or more).
 *
 * Every ticket but a TGT names its login session's TGT (`tgtId`): STs, PGTs and PTs are that TGT's
 * descendants, and their ids carry its session tag (ticket-ids.ts).
 */
export interface TicketStore {
  /** Stores a new ticket. Ids are unique; saving an id that exists replaces nothing and is a bug. */
  save(ticket: Ticket): Promise<void>;

  /** The live ticket of any kind, or undefined. Never extends a TGT. */
  get(id: string): Promise<Ticket | undefined>;

  /**
   * Atomically takes one use of a live ST or PT and returns it as it was before: the last use (the
   * only one, without `usesLeft`) removes it. Of any number of concurrent callers for one id, exactly
   * as many as it has uses left get the ticket; every other (and every later) caller gets undefined.
   * TGT and PGT ids are never consumed: the result is undefined and the ticket stays.
   */
  consume(id: string): Promise<ValidatableTicket | undefined>;

  /**
   * Records that a live TGT granted a ticket: increments `servicesGranted` and sets `expiresAt` to the
   * given (slid) expiry, in one atomic step conditioned on the TGT still being live. Returns the
   * updated TGT, or undefined when it is gone or expired.
   */
  touch(tgtId: string, expiresAt: number): Promise<TicketGrantingTicket | undefined>;

  /**
   * Gives a live TGT this authentication (its user logged in again, or proved more factors), in one
   * step conditioned on it being live as touch is; its times and count stay as stored. `tgt` is the
   * TGT as read (its id, and its createdAt, which never changes). Returns the updated TGT, or
   * undefined when it is gone or expired.
   */
  updateAuthentication(tgt: TicketGrantingTicket, authentication: Authentication): Promise<TicketGrantingTicket | undefined>;

  /** Removes a ticket of any kind. Unknown ids are fine. */
  remove(id: string): Promise<void>;

  /** Removes every ticket granted under the TGT (STs, PGTs, PTs); returns how many live ones were removed. */
  removeDescendants(tgtId: string): Promise<number>;
}
