import { updateRecord, type RecordStore, type RecordStores } from '../../ports/record-store.js';

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

/** The login module's namespace of single-logout records in the storage's RecordStores. */
export const SERVICE_SESSION_NAMESPACE = 'login.service-sessions';

/**
 * How long a TGT's record is kept after its check time: the expiry job takes it long before (it runs
 * every minute or so), so this only collects the records of a job that no longer runs.
 */
export const SERVICE_SESSION_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** A session as recorded (a JSON object: a type, so it reads as a record's value). */
type RecordedSession = { readonly ticketId: string; readonly service: string; readonly principal: string };
type SessionsRecord = { readonly sessions: readonly RecordedSession[] };

/**
 * ServiceSessionStore on the storage's records: one record per TGT holding its sessions, due at its
 * check time. Adding and postponing are compare-and-set updates of the record (each add computes what
 * it drops from the record it replaced, so each dropped session is reported by exactly one add); take
 * is the records' atomic take, so of the nodes noticing a TGT's end at once exactly one tells its services.
 */
export class RecordServiceSessionStore implements ServiceSessionStore {
  private readonly records: RecordStore<SessionsRecord>;

  constructor(records: RecordStores) {
    this.records = records.namespace<SessionsRecord>(SERVICE_SESSION_NAMESPACE);
  }

  async add(tgtId: string, session: ServiceSession, checkAt: number, limit: number): Promise<readonly ServiceSession[]> {
    const { ticketId, service, principal } = session;
    let dropped: readonly RecordedSession[] = [];
    await updateRecord(this.records, tgtId, (current) => {
      const sessions = [...(current?.value.sessions ?? []), { ticketId, service, principal }];
      const excess = Math.max(0, sessions.length - limit);
      dropped = sessions.slice(0, excess);
      const dueAt = Math.max(current?.dueAt ?? checkAt, checkAt);
      return { value: { sessions: sessions.slice(excess) }, dueAt, expiresAt: Math.max(current?.expiresAt ?? 0, dueAt + SERVICE_SESSION_RETENTION_MS) };
    });
    return dropped;
  }

  async take(tgtId: string): Promise<readonly ServiceSession[]> {
    return (await this.records.take(tgtId))?.sessions ?? [];
  }

  async due(now: number, limit: number): Promise<readonly string[]> {
    return (await this.records.due(now, limit)).map((record) => record.id);
  }

  async postpone(tgtId: string, checkAt: number): Promise<void> {
    await updateRecord(this.records, tgtId, (current) => {
      if (current === undefined || (current.dueAt ?? 0) >= checkAt) return undefined;
      return { value: current.value, dueAt: checkAt, expiresAt: Math.max(current.expiresAt, checkAt + SERVICE_SESSION_RETENTION_MS) };
    });
  }
}
