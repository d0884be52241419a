import {
  checkRecordNamespace,
  checkRecordWrite,
  decodeRecordValue,
  encodeRecordValue,
  type Clock,
  type FoundRecord,
  type JsonValue,
  type RandomSource,
  type RecordPlacement,
  type RecordStore,
  type RecordStores,
  type StoredRecord,
} from '@tessera/core';
import type { RedisKeys } from './keys.js';
import { EXPIRY_MARGIN_MS } from './redis-ticket-store.js';
import { runScript, type RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/** Random bytes in a version: no two writes of a record get the same one, even across a delete. */
const VERSION_BYTES = 12;
/** How many windows of the due index `due` reads past entries that went stale, before it answers with what it has. */
const DUE_ROUNDS = 10;

/** A record's hash fields, in the order `read` asks for them. */
const FIELDS = ['value', 'version', 'expiresAt', 'group', 'dueAt'] as const;

/**
 * Records in Redis, shared by every node. Each record is one hash (`RedisKeys.record`); a group is a
 * sorted set of its ids and a namespace's due times another (`recordGroup`, `recordsDue`). Every
 * command and script names one key (see scripts.ts), so on a cluster the record and its indexes may
 * live on different nodes and each step works while a slot is being moved; insert, take and replace
 * are each one script on the record's key, so concurrent nodes never both win. Each read checks
 * `expiresAt` against the clock; native TTLs, a margin past it, only collect garbage.
 *
 * The indexes are written before the record, so a write that fails or is refused halfway leaves at
 * most an entry too many, never a record its index lacks. A group's entry is forgotten only once the
 * clock says its record is dead (its score only ever rises, to the longest lifetime written under the
 * id): every live record of a group is in the group's index, whatever fails or runs at the same time,
 * and an entry whose record is gone or has moved to another group is skipped on read until its score
 * passes (forgetting it sooner could forget the entry of a write in flight).
 *
 * The due index is a schedule checked against the records: its score for an id only ever falls
 * before a write, so it is never later than the record's due time, and `due` lists a record only when
 * the record itself is live and due. An entry `due` finds early (the record's due time was moved
 * later) is moved to the record's due time, and one whose record is gone or has no due time is
 * forgotten, each change conditioned on the entry's score being as it was read. One window remains:
 * a write racing that change with a due time at or after the score read (and, for a forgotten entry,
 * on an id whose record was gone) can be listed late, at the due time read, or not at all, until the
 * record's next write puts it back on schedule. `due` sorts what it lists by due time, but an entry
 * still early may be listed before a record due sooner in a later window.
 *
 * Round trips: get, read, put, insert, replace, take, delete one each (a write with a group or due
 * time one more, its index writes first); findByGroup and deleteGroup two; due three per window it reads.
 */
export class RedisRecordStores implements RecordStores {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  namespace<T extends JsonValue>(name: string): RecordStore<T> {
    return new RedisRecordStore<T>(checkRecordNamespace(name), this.client, this.keys, this.clock, this.random);
  }
}

class RedisRecordStore<T extends JsonValue> implements RecordStore<T> {
  constructor(
    private readonly namespace: string,
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  async put(id: string, value: T, expiresAt: number, placement: RecordPlacement = {}): Promise<void> {
    const record = this.recordArgs(value, expiresAt, placement);
    await guarded(async () => {
      await this.index(id, expiresAt, placement);
      await runScript(this.client, 'tesseraPutRecord', [this.key(id)], record);
    });
  }

  async get(id: string): Promise<T | undefined> {
    const [value, expiresAt] = (await guarded(() => this.client.hmget(this.key(id), 'value', 'expiresAt'))) as [string | null, string | null];
    return value !== null && Number(expiresAt) > this.clock.now() ? decodeRecordValue<T>(value) : undefined;
  }

  insert(id: string, value: T, expiresAt: number, placement?: RecordPlacement): Promise<boolean> {
    return this.replace(id, undefined, value, expiresAt, placement);
  }

  async take(id: string): Promise<T | undefined> {
    const taken = (await guarded(() => runScript(this.client, 'tesseraTakeRecord', [this.key(id)], [this.clock.now()]))) as string | null;
    return taken === null ? undefined : decodeRecordValue<T>(taken);
  }

  async delete(id: string): Promise<void> {
    await guarded(() => this.client.del(this.key(id)));
  }

  read(id: string): Promise<StoredRecord<T> | undefined> {
    return guarded(() => this.readRecord(id));
  }

  async replace(id: string, expectedVersion: string | undefined, value: T, expiresAt: number, placement: RecordPlacement = {}): Promise<boolean> {
    const record = this.recordArgs(value, expiresAt, placement);
    const replaced = await guarded(async () => {
      await this.index(id, expiresAt, placement);
      return runScript(this.client, 'tesseraReplaceRecord', [this.key(id)], [this.clock.now(), expectedVersion ?? '', ...record]);
    });
    return replaced === 1;
  }

  async findByGroup(group: string): Promise<readonly FoundRecord<T>[]> {
    return guarded(async () => {
      const ids = await this.groupMembers(group);
      const records = await Promise.all(ids.map((id) => this.readRecord(id)));
      return ids.flatMap((id, i) => {
        const record = records[i];
        return record?.group === group ? [{ id, ...record }] : [];
      });
    });
  }

  async deleteGroup(group: string): Promise<void> {
    await guarded(async () => {
      const ids = await this.groupMembers(group);
      await Promise.all(ids.map((id) => runScript(this.client, 'tesseraDeleteRecordInGroup', [this.key(id)], [group])));
    });
  }

  /**
   * Reads the due index a window at a time: the records it names that are live and due are listed,
   * the other entries are set right, and the next window starts after those listed. Ends once `limit`
   * are listed, the index has no more entries due, or after DUE_ROUNDS windows.
   */
  async due(now: number, limit: number): Promise<readonly FoundRecord<T>[]> {
    const index = this.keys.recordsDue(this.namespace);
    const listed = new Map<string, FoundRecord<T>>();
    await guarded(async () => {
      let offset = 0;
      for (let round = 0; round < DUE_ROUNDS && listed.size < limit; round++) {
        const wanted = limit - listed.size;
        const entries = await this.client.zrangebyscore(index, '-inf', now, 'WITHSCORES', 'LIMIT', offset, wanted);
        const ids = entries.filter((_, i) => i % 2 === 0);
        const records = await Promise.all(ids.map((id) => this.readRecord(id)));
        const repairs: Promise<unknown>[] = [];
        ids.forEach((id, i) => {
          const record = records[i];
          if (record?.dueAt !== undefined && record.dueAt <= now) {
            listed.set(id, { id, ...record });
            offset += 1;
          } else {
            repairs.push(runScript(this.client, 'tesseraRepairRecordDue', [index], [id, entries[2 * i + 1]!, record?.dueAt ?? '']));
          }
        });
        await Promise.all(repairs);
        if (ids.length < wanted) break;
      }
    });
    return [...listed.values()].sort((a, b) => a.dueAt! - b.dueAt!);
  }

  private key(id: string): string {
    return this.keys.record(this.namespace, id);
  }

  /** The live record, or undefined; one HMGET. */
  private async readRecord(id: string): Promise<StoredRecord<T> | undefined> {
    const [value, version, expiresAt, group, dueAt] = (await this.client.hmget(this.key(id), ...FIELDS)) as [string | null, string | null, string | null, string | null, string | null];
    if (value === null || version === null || !(Number(expiresAt) > this.clock.now())) return undefined;
    return {
      value: decodeRecordValue<T>(value),
      version,
      expiresAt: Number(expiresAt),
      ...(group !== null && { group }),
      ...(dueAt !== null && { dueAt: Number(dueAt) }),
    };
  }

  /** The ids a group's index holds as live now; the dead ones are forgotten on the way. */
  private async groupMembers(group: string): Promise<string[]> {
    return (await runScript(this.client, 'tesseraRecordGroupMembers', [this.keys.recordGroup(this.namespace, group)], [this.clock.now()])) as string[];
  }

  /** Writes the index entries a record's group and due time need, before the record itself (see the class). */
  private async index(id: string, expiresAt: number, { group, dueAt }: RecordPlacement): Promise<void> {
    const ttl = this.ttlUntil(expiresAt);
    await Promise.all([
      group !== undefined && runScript(this.client, 'tesseraIndexRecordGroup', [this.keys.recordGroup(this.namespace, group)], [id, expiresAt, this.clock.now(), ttl]),
      dueAt !== undefined && runScript(this.client, 'tesseraIndexRecordDue', [this.keys.recordsDue(this.namespace)], [id, dueAt, ttl]),
    ]);
  }

  /** The arguments of WRITE_RECORD (scripts.ts), the record checked and encoded first so nothing bad is written. */
  private recordArgs(value: T, expiresAt: number, placement: RecordPlacement): (string | number)[] {
    checkRecordWrite(expiresAt, placement);
    const version = Buffer.from(this.random.bytes(VERSION_BYTES)).toString('base64url');
    return [encodeRecordValue(value), version, expiresAt, this.ttlUntil(expiresAt), placement.group ?? '', placement.dueAt ?? ''];
  }

  /** The record's native TTL: a margin past its expiry, so a node whose clock runs behind never loses a live record early. */
  private ttlUntil(expiresAt: number): number {
    return Math.max(1, expiresAt - this.clock.now() + EXPIRY_MARGIN_MS);
  }
}
