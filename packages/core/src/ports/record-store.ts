import { StoreUnavailableError } from '../domain/errors.js';

/**
 * A JSON value: what a record holds. Every adapter keeps it as JSON text, so it reads back deep-equal
 * to what was written, on every adapter alike. Declare a record's shape with `type`, not `interface`:
 * an interface has no index signature, so TypeScript does not take it for a JSON object.
 */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Where a written record belongs besides its id; both are part of the record, so every write states them. */
export interface RecordPlacement {
  /** The record's group (non-empty), found and deleted together by `findByGroup` and `deleteGroup`; none: in no group. */
  readonly group?: string;
  /** Epoch ms at or after which `due` lists the record; none: never listed. */
  readonly dueAt?: number;
}

/** A live record as stored. */
export interface StoredRecord<T extends JsonValue = JsonValue> extends RecordPlacement {
  readonly value: T;
  /** Names this write of the record: every write makes a new one, never one an earlier write of the id had. */
  readonly version: string;
  readonly expiresAt: number;
}

/** A record found by group or due time, with its id. */
export interface FoundRecord<T extends JsonValue = JsonValue> extends StoredRecord<T> {
  readonly id: string;
}

export interface RecordNamespaceOptions {
  /**
   * The most records one process's memory holds for this namespace: a full namespace forgets expired
   * records, then refuses new ones (StoreCapacityExceededError) rather than forget a live one. Shared
   * stores (Mongo, Redis) hold what their server can and take no limit.
   */
  readonly maxRecords?: number;
}

/**
 * What a storage adapter offers the modules: namespaces of records, each a RecordStore. A module opens
 * the namespaces it needs by name (a lowercase letter, then up to 63 lowercase letters, digits, `-`,
 * `_` or `.`: see `checkRecordNamespace`); opening a name again gives a store over the same records.
 * Every implementation passes the contract suite in @tessera/testkit.
 */
export interface RecordStores {
  namespace<T extends JsonValue = JsonValue>(name: string, options?: RecordNamespaceOptions): RecordStore<T>;
}

/**
 * One namespace's records, shared by every node where the storage is (one process's memory, or Mongo
 * or Redis), apart from every other namespace's. A record is an id (any string), a JSON value, a
 * lifetime (`expiresAt`, epoch ms from the Clock), a version, and optionally a group and a due time.
 *
 * Expiry is checked on every read against the store's clock: a record whose `expiresAt` is not after
 * now does not exist for any method, whether or not it was physically removed yet (a Redis TTL or a
 * Mongo TTL index only collects garbage, a while later). Times are safe integers (epoch ms); a value
 * JSON cannot hold as it is (NaN, an infinite number) or a bad time is refused with a RangeError and
 * nothing is written. Values are copied: changing an object after writing or reading it changes no record.
 */
export interface RecordStore<T extends JsonValue = JsonValue> {
  /** Writes the record whatever was there (upsert): value, lifetime, group and due time as given. */
  put(id: string, value: T, expiresAt: number, placement?: RecordPlacement): Promise<void>;

  /** The live record's value, or undefined. */
  get(id: string): Promise<T | undefined>;

  /**
   * Writes the record only if the id has no live record. True when it did; of any number of
   * concurrent callers for one id, on any node, exactly one gets true.
   */
  insert(id: string, value: T, expiresAt: number, placement?: RecordPlacement): Promise<boolean>;

  /**
   * Atomically removes the live record and returns its value. Of any number of concurrent callers for
   * one id, on any node, exactly one gets it; every other (and every later) caller gets undefined.
   */
  take(id: string): Promise<T | undefined>;

  /** Removes the record, live or not. Unknown ids are fine. */
  delete(id: string): Promise<void>;

  /** The live record with its version, expiry, group and due time, or undefined: the start of a compare-and-set. */
  read(id: string): Promise<StoredRecord<T> | undefined>;

  /**
   * Compare-and-set: writes the record (as `put`) only if the live record still has `expectedVersion`,
   * or, with `expectedVersion` undefined, only if there is no live record (as `insert`). True when it
   * wrote; of concurrent callers expecting one version, exactly one gets true. `updateRecord` is the
   * retry loop over `read` and `replace` that modules use for read-modify-write.
   */
  replace(id: string, expectedVersion: string | undefined, value: T, expiresAt: number, placement?: RecordPlacement): Promise<boolean>;

  /**
   * The live records of a group, in no particular order. A record is in the group its last write
   * named: writing it with another group or none takes it out.
   */
  findByGroup(group: string): Promise<readonly FoundRecord<T>[]>;

  /**
   * Removes every record of the group. Each record written to the group before this call began is
   * gone when it returns; one written while it runs may stay, and is then still found by the group.
   */
  deleteGroup(group: string): Promise<void>;

  /**
   * Up to `limit` live records whose due time is at or before `now`, earliest due time first (ties in
   * no particular order): a scheduling queue. A record stays due until it is taken, deleted or
   * expires, or a write gives it a later due time or none.
   */
  due(now: number, limit: number): Promise<readonly FoundRecord<T>[]>;
}

/** How a change made by `updateRecord` writes the record: what `put` takes. */
export interface RecordWrite<T extends JsonValue> extends RecordPlacement {
  readonly value: T;
  readonly expiresAt: number;
}

/** `updateRecord`'s attempts when the caller names none: enough for a few callers changing one record at once. */
export const UPDATE_RECORD_ATTEMPTS = 10;

/**
 * Atomic read-modify-write of one record: reads it, asks `change` for the record to write (given the
 * live record, or undefined when there is none), and writes that only if nobody wrote the record
 * meanwhile; otherwise it reads again and asks again, at most `attempts` times in all. `change` must
 * be a pure function of the record it is given, since it may run once per attempt. Returns what it
 * wrote, or undefined when `change` wrote nothing (it returned undefined: the record stays as it was).
 * A record that kept changing under every attempt is StoreUnavailableError (503, try again). Every
 * failed attempt is another caller's success, so of N callers changing one record once each, every
 * one writes within N attempts; but on a record that a steady stream of callers keeps changing (a
 * hot counter) a caller can lose many times in a row, far more than the callers in flight, each
 * attempt costing a read and a write. Such a record is better served by one atomic step of a
 * specialised store.
 */
export async function updateRecord<T extends JsonValue>(
  store: RecordStore<T>,
  id: string,
  change: (current: StoredRecord<T> | undefined) => RecordWrite<T> | undefined,
  attempts = UPDATE_RECORD_ATTEMPTS,
): Promise<RecordWrite<T> | undefined> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const current = await store.read(id);
    const next = change(current);
    if (next === undefined) return undefined;
    const { value, expiresAt, group, dueAt } = next;
    const placement = { ...(group !== undefined && { group }), ...(dueAt !== undefined && { dueAt }) };
    if (await store.replace(id, current?.version, value, expiresAt, placement)) return next;
  }
  throw new StoreUnavailableError(`A record kept changing under ${attempts} attempts to update it; try again`);
}

const NAMESPACE_NAME = /^[a-z][a-z0-9._-]{0,63}$/;

/**
 * The name of a namespace, or a RangeError. Adapters build keys and document ids from it with `:` as
 * the separator and Redis reads `{…}` in a key as a hash tag, so a name holds neither: only lowercase
 * letters, digits, `-`, `_` and `.`, a letter first, at most 64 characters.
 */
export function checkRecordNamespace(name: string): string {
  if (!NAMESPACE_NAME.test(name)) {
    throw new RangeError(`Record namespace ${JSON.stringify(name)} is not a name: a lowercase letter, then up to 63 lowercase letters, digits, '-', '_' or '.'`);
  }
  return name;
}

/** A record's lifetime and placement, checked before anything is written: safe integers and a non-empty group. */
export function checkRecordWrite(expiresAt: number, placement: RecordPlacement = {}): void {
  if (!Number.isSafeInteger(expiresAt)) throw new RangeError(`A record's expiresAt must be epoch milliseconds (a safe integer), got ${expiresAt}`);
  if (placement.dueAt !== undefined && !Number.isSafeInteger(placement.dueAt)) {
    throw new RangeError(`A record's dueAt must be epoch milliseconds (a safe integer), got ${placement.dueAt}`);
  }
  if (placement.group === '') throw new RangeError("A record's group, when given, is a non-empty string");
}

/**
 * A record's value as JSON text, or a RangeError for a number JSON would turn into null (NaN, an
 * infinite number), so that no adapter stores something other than what it was given.
 */
export function encodeRecordValue(value: JsonValue): string {
  const json = JSON.stringify(value);
  // JSON writes a number it cannot hold as null: only text with a null in it is walked again to find one.
  if (json.includes('null')) {
    JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === 'number' && !Number.isFinite(item)) throw new RangeError(`A record's value holds ${item}, which JSON cannot hold`);
      return item;
    });
  }
  return json;
}

/**
 * A copy of a record's value that reads as JSON would give it back (`JSON.parse(encodeRecordValue(value))`),
 * made without the text: a store that keeps values in this process's memory copies on every write and
 * read, and walking a small object costs a fraction of printing and parsing it. Plain objects, arrays
 * and JSON's primitives are walked; as JSON, an object's undefined, function or symbol fields are left
 * out, an array's become null, and -0 is 0. Anything else (a Date, an object with toJSON, a class
 * instance, a `__proto__` key) goes through JSON itself. A number JSON cannot hold is a RangeError, as
 * for encodeRecordValue.
 */
export function copyRecordValue<T extends JsonValue>(value: T): T {
  const copied = copiedPlainly(value, 0);
  return (copied === NOT_PLAIN ? JSON.parse(encodeRecordValue(value)) : copied) as T;
}

/**
 * A copy of a value copyRecordValue made (or JSON.parse gave): it holds only plain objects, arrays
 * without holes or undefined items, finite numbers, strings, booleans and null, so it is walked
 * without copyRecordValue's checks. A store that keeps such values copies them this way on every read.
 */
export function copyHeldRecordValue<T extends JsonValue>(value: T): T {
  return copiedHeld(value) as T;
}

function copiedHeld(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = copiedHeld(value[index]);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copiedHeld((value as Record<string, unknown>)[key]);
    // JSON.parse makes `__proto__` an own key; assigned, it would set the copy's prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

const NOT_PLAIN = Symbol('not plain JSON');
/** Deeper than this, JSON itself copies (and a cycle is its TypeError). */
const MAX_PLAIN_DEPTH = 64;

function copiedPlainly(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError(`A record's value holds ${value}, which JSON cannot hold`);
      return value === 0 ? 0 : value;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return null;
  // An array is printed by its toJSON too, as any object is.
  if (depth >= MAX_PLAIN_DEPTH || 'toJSON' in value) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const copied = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : copiedPlainly(item, depth + 1);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      copy[index] = copied;
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    if (key === '__proto__') return NOT_PLAIN;
    const copied = copiedPlainly(item, depth + 1);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = copied;
  }
  return copy;
}

/** A stored record's value from its JSON text; text that is not JSON is named as such (never shown: it may hold secrets). */
export function decodeRecordValue<T extends JsonValue>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error('A stored record is not JSON: the store holds something tessera did not write');
  }
}
