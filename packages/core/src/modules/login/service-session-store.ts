/** A service that validated a ticket of a TGT and asked to be told when the TGT ends (single logout). */
export interface ServiceSession {
  /** The ticket the service validated: the SessionIndex of its logout request. */
  readonly ticketId: string;
  /** The service URL the ticket was issued for. */
  readonly service: string;
  /** The TGT's principal, for the audit trail. */
  readonly principal: string;
}

/**
 * Who to tell when a TGT ends, shared by every node. One record per TGT: its sessions and a check
 * time, the TGT's expiry as last known, before which the TGT cannot have expired (a TGT's expiry only
 * moves later). Every implementation passes the contract suite in @tessera/testkit.
 */
export interface ServiceSessionStore {
  /**
   * Appends `session` to the TGT's record, creating it when absent, and sets the record's check time
   * to the later of the stored one and `checkAt`. The record then keeps its newest `limit` sessions:
   * the ones it drops to stay within it, oldest first, are returned ([] when none), each by exactly
   * one add. Concurrent adds for one TGT all land, the same step appending and trimming.
   */
  add(tgtId: string, session: ServiceSession, checkAt: number, limit: number): Promise<readonly ServiceSession[]>;

  /**
   * Atomically removes the TGT's record and returns its sessions in the order added ([] when there
   * is none). Of any number of concurrent callers for one TGT, on any node, exactly one gets them.
   */
  take(tgtId: string): Promise<readonly ServiceSession[]>;

  /** Up to `limit` TGT ids whose record's check time is at or before `now`, earliest first. */
  due(now: number, limit: number): Promise<readonly string[]>;

  /** Sets the record's check time to the later of the stored one and `checkAt`; nothing when there is no record. */
  postpone(tgtId: string, checkAt: number): Promise<void>;
}
