import type { ServiceSession, ServiceSessionStore } from '@tessera/core/modules/login';

interface SessionRecord {
  readonly sessions: ServiceSession[];
  checkAt: number;
}

/**
 * Single-logout records in one process's memory, one per TGT with sessions. Every method runs in one
 * synchronous step, so take is atomic. `due` scans every record: it runs once per expiry check, not per request.
 */
export class MemoryServiceSessionStore implements ServiceSessionStore {
  private readonly records = new Map<string, SessionRecord>();

  /** Records held (one per TGT with sessions). */
  get size(): number {
    return this.records.size;
  }

  add(tgtId: string, session: ServiceSession, checkAt: number, limit: number): Promise<readonly ServiceSession[]> {
    const record = this.records.get(tgtId);
    if (record === undefined) {
      this.records.set(tgtId, { sessions: [session], checkAt });
      return Promise.resolve([]);
    }
    record.sessions.push(session);
    record.checkAt = Math.max(record.checkAt, checkAt);
    return Promise.resolve(record.sessions.splice(0, Math.max(0, record.sessions.length - limit)));
  }

  take(tgtId: string): Promise<readonly ServiceSession[]> {
    const record = this.records.get(tgtId);
    this.records.delete(tgtId);
    return Promise.resolve(record?.sessions ?? []);
  }

  due(now: number, limit: number): Promise<readonly string[]> {
    const due = [...this.records].filter(([, record]) => record.checkAt <= now).sort(([, a], [, b]) => a.checkAt - b.checkAt);
    return Promise.resolve(due.slice(0, limit).map(([tgtId]) => tgtId));
  }

  postpone(tgtId: string, checkAt: number): Promise<void> {
    const record = this.records.get(tgtId);
    if (record !== undefined) record.checkAt = Math.max(record.checkAt, checkAt);
    return Promise.resolve();
  }
}
