import {
  StoreCapacityExceededError,
  checkRecordNamespace,
  checkRecordWrite,
  copyHeldRecordValue,
  copyRecordValue,
  type Clock,
  type FoundRecord,
  type JsonValue,
  type RecordNamespaceOptions,
  type RecordPlacement,
  type RecordStore,
  type RecordStores,
  type StoredRecord,
} from '@tessera/core';

/** A namespace's records held at most, when its module names no limit. */
export const DEFAULT_MAX_RECORDS = 1_000_000;
/** A full namespace sweeps at most this often, so a flood of refused writes cannot each scan every record. */
const FULL_SWEEP_INTERVAL_MS = 1000;

/**
 * A record as held: a copy of its value no caller can reach (each read hands out a copy of it), the
 * rest as given. Copies and not JSON text: a copy is made in a fraction of the time a value takes to be
 * printed and parsed, and provider records are read several times per request.
 */
interface HeldRecord extends RecordPlacement {
  readonly value: JsonValue;
  readonly version: string;
  readonly expiresAt: number;
}

/** One namespace's records, with the ids of each group and of the records that have a due time. */
class HeldNamespace {
  readonly records = new Map<string, HeldRecord>();
  private readonly groups = new Map<string, Set<string>>();
  readonly dueIds = new Set<string>();
  lastSweepAt = Number.NEGATIVE_INFINITY;

  constructor(readonly maxRecords: number) {}

  set(id: string, record: HeldRecord): void {
    this.remove(id);
    this.records.set(id, record);
    if (record.group !== undefined) {
      const members = this.groups.get(record.group);
      if (members === undefined) this.groups.set(record.group, new Set([id]));
      else members.add(id);
    }
    if (record.dueAt !== undefined) this.dueIds.add(id);
  }

  remove(id: string): HeldRecord | undefined {
    const record = this.records.get(id);
    if (record === undefined) return undefined;
    this.records.delete(id);
    if (record.group !== undefined) {
      const members = this.groups.get(record.group);
      members?.delete(id);
      if (members?.size === 0) this.groups.delete(record.group);
    }
    this.dueIds.delete(id);
    return record;
  }

  members(group: string): readonly string[] {
    return [...(this.groups.get(group) ?? [])];
  }

  /** Removes every record expired at `now`; returns how many. */
  sweep(now: number): number {
    this.lastSweepAt = now;
    let removed = 0;
    for (const [id, record] of this.records) {
      if (record.expiresAt > now) continue;
      this.remove(id);
      removed += 1;
    }
    return removed;
  }
}

/**
 * Records in one process's memory, each namespace bounded (`maxRecords`, 1,000,000 unless the module
 * says otherwise): a full namespace first forgets expired records (at most once a second), then refuses
 * a new id (503) rather than forget a live record. Every method runs in one synchronous step, so
 * insert, take and replace are atomic without locks. Expired records are invisible at once and freed
 * by `sweep`, which the memory storage runs on its sweep interval. Versions count this process's
 * writes, so none is ever given twice. `due` sorts the namespace's records that have a due time: it
 * runs once per scheduled check, not per request.
 */
export class MemoryRecordStores implements RecordStores {
  private readonly namespaces = new Map<string, HeldNamespace>();
  private writes = 0;

  constructor(private readonly clock: Clock) {}

  /** Records held in every namespace, expired ones not yet swept included. */
  get size(): number {
    let size = 0;
    for (const held of this.namespaces.values()) size += held.records.size;
    return size;
  }

  /** The namespace's records; opened again, the same records under the limit it was first opened with. */
  namespace<T extends JsonValue>(name: string, options: RecordNamespaceOptions = {}): RecordStore<T> {
    checkRecordNamespace(name);
    let held = this.namespaces.get(name);
    if (held === undefined) {
      const maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
      if (!Number.isSafeInteger(maxRecords) || maxRecords < 1) throw new RangeError(`maxRecords of record namespace ${name} must be a positive integer, got ${maxRecords}`);
      held = new HeldNamespace(maxRecords);
      this.namespaces.set(name, held);
    }
    return new MemoryRecordStore<T>(name, held, this.clock, () => String(++this.writes));
  }

  /** Frees every expired record of every namespace; returns how many. */
  sweep(): number {
    const now = this.clock.now();
    let removed = 0;
    for (const held of this.namespaces.values()) removed += held.sweep(now);
    return removed;
  }
}

class MemoryRecordStore<T extends JsonValue> implements RecordStore<T> {
  constructor(
    private readonly name: string,
    private readonly held: HeldNamespace,
    private readonly clock: Clock,
    private readonly nextVersion: () => string,
  ) {}

  put(id: string, value: T, expiresAt: number, placement?: RecordPlacement): Promise<void> {
    return settle(() => this.write(id, value, expiresAt, placement));
  }

  get(id: string): Promise<T | undefined> {
    const record = this.live(id);
    return Promise.resolve(record && copyHeldRecordValue(record.value as T));
  }

  insert(id: string, value: T, expiresAt: number, placement?: RecordPlacement): Promise<boolean> {
    return this.replace(id, undefined, value, expiresAt, placement);
  }

  take(id: string): Promise<T | undefined> {
    const record = this.live(id);
    if (record === undefined) return Promise.resolve(undefined);
    this.held.remove(id);
    // Removed: nobody else holds the value, so no copy.
    return Promise.resolve(record.value as T);
  }

  delete(id: string): Promise<void> {
    this.held.remove(id);
    return Promise.resolve();
  }

  read(id: string): Promise<StoredRecord<T> | undefined> {
    const record = this.live(id);
    return Promise.resolve(record && stored<T>(record));
  }

  replace(id: string, expectedVersion: string | undefined, value: T, expiresAt: number, placement?: RecordPlacement): Promise<boolean> {
    return settle(() => {
      if (this.live(id)?.version !== expectedVersion) return false;
      this.write(id, value, expiresAt, placement);
      return true;
    });
  }

  findByGroup(group: string): Promise<readonly FoundRecord<T>[]> {
    return Promise.resolve(this.found(this.held.members(group)));
  }

  deleteGroup(group: string): Promise<void> {
    for (const id of this.held.members(group)) this.held.remove(id);
    return Promise.resolve();
  }

  /** Copies only the records it returns: the others with a due time are compared, not read. */
  due(now: number, limit: number): Promise<readonly FoundRecord<T>[]> {
    const due: [string, number][] = [];
    for (const id of this.held.dueIds) {
      const dueAt = this.live(id)?.dueAt;
      if (dueAt !== undefined && dueAt <= now) due.push([id, dueAt]);
    }
    const earliest = due.sort(([, a], [, b]) => a - b).slice(0, limit);
    return Promise.resolve(this.found(earliest.map(([id]) => id)));
  }

  private live(id: string): HeldRecord | undefined {
    const record = this.held.records.get(id);
    return record !== undefined && record.expiresAt > this.clock.now() ? record : undefined;
  }

  private found(ids: readonly string[]): FoundRecord<T>[] {
    const found: FoundRecord<T>[] = [];
    for (const id of ids) {
      const record = this.live(id);
      if (record !== undefined) found.push({ id, ...stored<T>(record) });
    }
    return found;
  }

  private write(id: string, value: T, expiresAt: number, placement: RecordPlacement = {}): void {
    checkRecordWrite(expiresAt, placement);
    const held = copyRecordValue(value);
    if (!this.held.records.has(id) && !this.hasRoom()) {
      throw new StoreCapacityExceededError(`The in-memory record namespace ${this.name} is full (${this.held.maxRecords} records); no new record until some expire`);
    }
    const { group, dueAt } = placement;
    this.held.set(id, { value: held, version: this.nextVersion(), expiresAt, ...(group !== undefined && { group }), ...(dueAt !== undefined && { dueAt }) });
  }

  /** True when a new record fits, after sweeping a full namespace if it was not swept in the last second. */
  private hasRoom(): boolean {
    if (this.held.records.size < this.held.maxRecords) return true;
    const now = this.clock.now();
    if (now - this.held.lastSweepAt >= FULL_SWEEP_INTERVAL_MS) this.held.sweep(now);
    return this.held.records.size < this.held.maxRecords;
  }
}

function stored<T extends JsonValue>({ value, version, expiresAt, group, dueAt }: HeldRecord): StoredRecord<T> {
  return { value: copyHeldRecordValue(value as T), version, expiresAt, ...(group !== undefined && { group }), ...(dueAt !== undefined && { dueAt }) };
}

/** The result of a synchronous step as a promise, which rejects when the step throws (a bad write, a full namespace). */
function settle<R>(step: () => R): Promise<R> {
  return new Promise((resolve) => resolve(step()));
}
