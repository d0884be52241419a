import type { Collection, UpdateFilter } from 'mongodb';
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
import { ExpiringCollection, isDuplicateKey } from './expiring-collection.js';
import type { Guarded } from './unavailable.js';

/** A record of a RecordStores namespace; `_id` is `<namespace>:<id>` (namespace names hold no `:`). */
export interface RecordDocument {
  _id: string;
  namespace: string;
  /**
   * The value as JSON text, not as a subdocument: any JSON value comes back as it was written, keys
   * with a `.` or a leading `$` (which BSON field names and update paths read otherwise) included.
   */
  value: string;
  version: string;
  /** Carries the TTL index (garbage collection, a margin later); reads compare it with the clock. */
  expiresAt: Date;
  group?: string;
  dueAt?: Date;
}

/**
 * How long after its expiresAt the TTL monitor may remove a record: reads decide by the clock alone,
 * and the margin keeps a node whose clock runs behind the database's from losing a live record early.
 */
export const RECORD_EXPIRY_MARGIN_SECONDS = 60;

/** Random bytes in a version: no two writes of a record get the same one, even across a delete. */
const VERSION_BYTES = 12;
/** Two puts racing to insert one id: the loser writes over the winner's record. */
const PUT_ATTEMPTS = 3;

/**
 * Records in MongoDB, shared by every node: one `records` collection for every namespace, one document
 * per record. Each step is one single-document command, so insert, take and replace are atomic: a
 * replace is conditioned on the version, an insert on the record being dead (an upsert, taking over
 * an expired document in place, or refused by the unique `_id` when a live one is there). Each read
 * filters `expiresAt` against the clock itself: the TTL index only collects garbage. Groups and due
 * times are fields of the record, each with a partial index on (namespace, field), so they can never
 * disagree with it.
 */
export class MongoRecordStores implements RecordStores {
  private readonly records: ExpiringCollection<RecordDocument>;

  constructor(
    records: Collection<RecordDocument>,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    guarded: Guarded,
  ) {
    this.records = new ExpiringCollection(records, guarded, RECORD_EXPIRY_MARGIN_SECONDS);
  }

  /** Idempotent: creating an index that exists with the same options does nothing. */
  async createIndexes(): Promise<void> {
    await this.records.createTtlIndex();
    await this.records.run((records) => records.createIndex({ namespace: 1, group: 1 }, { name: 'namespace_group', partialFilterExpression: { group: { $exists: true } } }));
    await this.records.run((records) => records.createIndex({ namespace: 1, dueAt: 1 }, { name: 'namespace_dueAt', partialFilterExpression: { dueAt: { $exists: true } } }));
  }

  namespace<T extends JsonValue>(name: string): RecordStore<T> {
    return new MongoRecordStore<T>(checkRecordNamespace(name), this.records, this.clock, this.random);
  }
}

class MongoRecordStore<T extends JsonValue> implements RecordStore<T> {
  constructor(
    private readonly namespace: string,
    private readonly records: ExpiringCollection<RecordDocument>,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  async put(id: string, value: T, expiresAt: number, placement?: RecordPlacement): Promise<void> {
    const change = this.write(value, expiresAt, placement);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.records.run((records) => records.findOneAndUpdate({ _id: this.key(id) }, change, { upsert: true, projection: { _id: 1 } }));
        return;
      } catch (error) {
        if (!isDuplicateKey(error) || attempt >= PUT_ATTEMPTS) throw error;
      }
    }
  }

  async get(id: string): Promise<T | undefined> {
    const found = await this.records.run((records) => records.findOne({ _id: this.key(id), expiresAt: { $gt: this.now() } }));
    return found === null ? undefined : decodeRecordValue<T>(found.value);
  }

  insert(id: string, value: T, expiresAt: number, placement?: RecordPlacement): Promise<boolean> {
    return this.replace(id, undefined, value, expiresAt, placement);
  }

  async take(id: string): Promise<T | undefined> {
    const taken = await this.records.run((records) => records.findOneAndDelete({ _id: this.key(id), expiresAt: { $gt: this.now() } }));
    return taken === null ? undefined : decodeRecordValue<T>(taken.value);
  }

  async delete(id: string): Promise<void> {
    await this.records.run((records) => records.deleteOne({ _id: this.key(id) }));
  }

  async read(id: string): Promise<StoredRecord<T> | undefined> {
    const found = await this.records.run((records) => records.findOne({ _id: this.key(id), expiresAt: { $gt: this.now() } }));
    return found === null ? undefined : storedRecord<T>(found);
  }

  async replace(id: string, expectedVersion: string | undefined, value: T, expiresAt: number, placement?: RecordPlacement): Promise<boolean> {
    const change = this.write(value, expiresAt, placement);
    const now = this.now();
    if (expectedVersion !== undefined) {
      const replaced = await this.records.run((records) => records.findOneAndUpdate({ _id: this.key(id), version: expectedVersion, expiresAt: { $gt: now } }, change, { projection: { _id: 1 } }));
      return replaced !== null;
    }
    try {
      // Matches a dead record (updated in place) or nothing (inserted); a live one makes the insert a duplicate.
      await this.records.run((records) => records.findOneAndUpdate({ _id: this.key(id), expiresAt: { $lte: now } }, change, { upsert: true, projection: { _id: 1 } }));
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async findByGroup(group: string): Promise<readonly FoundRecord<T>[]> {
    const found = await this.records.run((records) =>
      records
        .find({ namespace: this.namespace, group, expiresAt: { $gt: this.now() } })
        .sort({ _id: 1 })
        .toArray(),
    );
    return found.map((document) => this.foundRecord(document));
  }

  async deleteGroup(group: string): Promise<void> {
    await this.records.run((records) => records.deleteMany({ namespace: this.namespace, group }));
  }

  async due(now: number, limit: number): Promise<readonly FoundRecord<T>[]> {
    const found = await this.records.run((records) =>
      records
        .find({ namespace: this.namespace, dueAt: { $lte: new Date(now) }, expiresAt: { $gt: this.now() } })
        .sort({ dueAt: 1 })
        .limit(limit)
        .toArray(),
    );
    return found.map((document) => this.foundRecord(document));
  }

  private key(id: string): string {
    return `${this.namespace}:${id}`;
  }

  private now(): Date {
    return new Date(this.clock.now());
  }

  /** The whole record as one update, a new version with it; fields it does not have are unset. */
  private write(value: T, expiresAt: number, placement: RecordPlacement = {}): UpdateFilter<RecordDocument> {
    checkRecordWrite(expiresAt, placement);
    const { group, dueAt } = placement;
    const $set = {
      namespace: this.namespace,
      value: encodeRecordValue(value),
      version: Buffer.from(this.random.bytes(VERSION_BYTES)).toString('base64url'),
      expiresAt: new Date(expiresAt),
      ...(group !== undefined && { group }),
      ...(dueAt !== undefined && { dueAt: new Date(dueAt) }),
    };
    const $unset = { ...(group === undefined && { group: '' as const }), ...(dueAt === undefined && { dueAt: '' as const }) };
    return Object.keys($unset).length === 0 ? { $set } : { $set, $unset };
  }

  private foundRecord(document: RecordDocument): FoundRecord<T> {
    return { id: document._id.slice(this.namespace.length + 1), ...storedRecord<T>(document) };
  }
}

/** Field by field, so neither `_id` nor anything a future version adds leaks into core. */
function storedRecord<T extends JsonValue>({ value, version, expiresAt, group, dueAt }: RecordDocument): StoredRecord<T> {
  return {
    value: decodeRecordValue<T>(value),
    version,
    expiresAt: expiresAt.getTime(),
    ...(group !== undefined && { group }),
    ...(dueAt !== undefined && { dueAt: dueAt.getTime() }),
  };
}
