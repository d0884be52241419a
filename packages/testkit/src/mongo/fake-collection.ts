import { Query, update, updateOne } from 'mingo';
import { compare, resolve } from 'mingo/util';

type Document = Record<string, unknown>;
type Filter = Record<string, unknown>;
type SortOrder = Record<string, 1 | -1>;

/** One call the adapter made: the method and its arguments, as sent. */
export interface RecordedCall {
  readonly method: string;
  readonly args: readonly unknown[];
}

/**
 * An in-memory stand-in for a driver `Collection`, with the methods the Mongo adapter uses. Filters
 * and updates are evaluated by mingo (MongoDB's query language for objects), sorts and upserts behave
 * as the server's (see `sortedAsServer` and `insertUpserted`), every call is recorded so tests can pin
 * the exact queries, `failWith` makes every call fail (a lost database) and `silent` makes every call
 * wait for an answer that never comes (a primary that stopped answering).
 */
export class FakeCollection {
  readonly calls: RecordedCall[] = [];
  documents: Document[] = [];
  failWith: Error | undefined;
  silent = false;

  async insertOne(document: Document) {
    this.record('insertOne', document);
    await this.answer();
    if (this.documents.some((stored) => stored._id === document._id)) throw duplicateKey(document._id);
    this.documents.push(structuredClone(document));
    return { acknowledged: true, insertedId: document._id };
  }

  async findOne(filter: Filter) {
    this.record('findOne', filter);
    await this.answer();
    return copy(this.first(filter));
  }

  /** A cursor as the driver's: nothing is sent until `toArray`. */
  find(filter: Filter) {
    this.record('find', filter);
    const results = async (order: SortOrder | undefined, count: number | undefined) => {
      await this.answer();
      const query = new Query(filter);
      const found = this.documents.filter((stored) => query.test(stored));
      const sorted = order === undefined ? found : sortedAsServer(found, order);
      return sorted.slice(0, count).map((document) => structuredClone(document));
    };
    return {
      toArray: () => results(undefined, undefined),
      sort: (order: SortOrder) => {
        this.record('find.sort', order);
        return {
          toArray: () => results(order, undefined),
          limit: (count: number) => {
            this.record('find.limit', count);
            return { toArray: () => results(order, count) };
          },
        };
      },
    };
  }

  async findOneAndDelete(filter: Filter) {
    this.record('findOneAndDelete', filter);
    await this.answer();
    const found = this.first(filter);
    if (found !== undefined) this.documents = this.documents.filter((stored) => stored !== found);
    return copy(found);
  }

  /** `changes` is update operators, or an aggregation pipeline (MongoDB 4.2+) whose result replaces the document. */
  async findOneAndUpdate(filter: Filter, changes: Document | Document[], options: { returnDocument?: 'before' | 'after'; upsert?: boolean } = {}) {
    this.record('findOneAndUpdate', filter, changes, options);
    await this.answer();
    const found = this.first(filter);
    if (Array.isArray(changes)) return this.updateByPipeline(filter, found, changes, options);
    if (found === undefined) return options.upsert === true ? this.upsert(filter, changes, options.returnDocument) : null;
    const before = structuredClone(found);
    // $setOnInsert applies only when an upsert inserts.
    const { $setOnInsert: _onInsertOnly, ...onUpdate } = changes;
    update(found, onUpdate);
    return options.returnDocument === 'after' ? structuredClone(found) : before;
  }

  async replaceOne(filter: Filter, replacement: Document, options: { upsert?: boolean } = {}) {
    this.record('replaceOne', filter, replacement, options);
    await this.answer();
    const found = this.first(filter);
    if (found === undefined && options.upsert !== true) return { matchedCount: 0, upsertedCount: 0 };
    const _id = found?._id ?? filter._id ?? `fake-${this.documents.length + 1}`;
    this.documents = this.documents.filter((stored) => stored !== found);
    this.documents.push({ _id, ...structuredClone(replacement) });
    return { matchedCount: found === undefined ? 0 : 1, upsertedCount: found === undefined ? 1 : 0 };
  }

  async deleteOne(filter: Filter) {
    this.record('deleteOne', filter);
    await this.answer();
    const found = this.first(filter);
    this.documents = this.documents.filter((stored) => stored !== found);
    return { acknowledged: true, deletedCount: found === undefined ? 0 : 1 };
  }

  async deleteMany(filter: Filter) {
    this.record('deleteMany', filter);
    await this.answer();
    const query = new Query(filter);
    const kept = this.documents.filter((stored) => !query.test(stored));
    const deletedCount = this.documents.length - kept.length;
    this.documents = kept;
    return { acknowledged: true, deletedCount };
  }

  async countDocuments(filter: Filter) {
    this.record('countDocuments', filter);
    await this.answer();
    const query = new Query(filter);
    return this.documents.filter((stored) => query.test(stored)).length;
  }

  async createIndex(keys: Record<string, unknown>, options: Record<string, unknown> = {}) {
    this.record('createIndex', keys, options);
    await this.answer();
    return typeof options.name === 'string' ? options.name : Object.keys(keys).join('_');
  }

  /** The calls of one method, arguments only: what the tests pin. */
  argsOf(method: string): readonly (readonly unknown[])[] {
    return this.calls.filter((call) => call.method === method).map((call) => call.args);
  }

  /** An upsert that inserts: the filter's `_id`, then $setOnInsert with the other changes. */
  private async upsert(filter: Filter, changes: Document, returnDocument: 'before' | 'after' | undefined) {
    const { $setOnInsert, $set, ...others } = changes as { $setOnInsert?: Document; $set?: Document };
    const inserted: Document = { _id: filter._id };
    update(inserted, { ...others, $set: { ...$setOnInsert, ...$set } });
    await this.insertUpserted(inserted);
    return returnDocument === 'after' ? structuredClone(inserted) : null;
  }

  /**
   * A pipeline update: the stages run on the found document or, for an upsert that inserts, on one
   * holding only the filter's `_id` (the server starts from the filter's equality fields); the result
   * replaces the document. A stage an update pipeline does not allow throws, as on the server.
   */
  private async updateByPipeline(filter: Filter, found: Document | undefined, pipeline: Document[], options: { returnDocument?: 'before' | 'after'; upsert?: boolean }) {
    if (found === undefined && options.upsert !== true) return null;
    const updated: [Document] = [structuredClone(found ?? { _id: filter._id })];
    updateOne(updated, {}, pipeline as Parameters<typeof updateOne>[2]);
    const [after] = updated;
    if (found === undefined) await this.insertUpserted(after);
    else this.documents[this.documents.indexOf(found)] = after;
    return options.returnDocument === 'after' ? structuredClone(after) : copy(found);
  }

  /**
   * The insert half of an upsert whose filter matched nothing. On the server, finding no match and
   * inserting are two steps: other clients' operations run in between, and when one of them inserted
   * the same `_id` first, the unique index refuses this insert with E11000 and nothing is written.
   * (MongoDB 4.2+ retries such an upsert itself when its filter is only equality on `_id`; earlier
   * servers, and every other filter, answer E11000, which is what callers must handle.) So the fake
   * lets every call already sent evaluate its filter before inserting.
   */
  private async insertUpserted(document: Document): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.documents.some((stored) => stored._id === document._id)) throw duplicateKey(document._id);
    this.documents.push(document);
  }

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args: structuredClone(args) });
  }

  /** As the database answers now: a failure, no answer ever, or the operation goes on. */
  private async answer(): Promise<void> {
    if (this.failWith !== undefined) throw this.failWith;
    if (this.silent) await new Promise(() => undefined);
  }

  private first(filter: Filter): Document | undefined {
    const query = new Query(filter);
    return this.documents.find((stored) => query.test(stored));
  }
}

/**
 * The server's order for a sort without a collation: BSON type order, strings compared by their UTF-8
 * bytes (a binary compare: `app1` before `app_x`, `Zeta` before `app1`, `zeta` before `école`). mingo's
 * own sort compares strings by UTF-16 code units, which puts characters beyond U+FFFF before U+E000 to
 * U+FFFF, where UTF-8 puts them after; so strings are compared here as the server does.
 */
function sortedAsServer(documents: readonly Document[], order: SortOrder): Document[] {
  const keys = Object.entries(order);
  return [...documents].sort((a, b) => {
    for (const [key, direction] of keys) {
      const compared = serverCompare(resolve(a, key), resolve(b, key));
      if (compared !== 0) return compared * direction;
    }
    return 0;
  });
}

function serverCompare(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  return compare(a, b);
}

/** The server's duplicate key error, as far as callers look at it: its code. */
function duplicateKey(id: unknown): Error {
  return Object.assign(new Error(`E11000 duplicate key error: _id ${String(id)}`), { code: 11000 });
}

function copy(document: Document | undefined): Document | null {
  return document === undefined ? null : structuredClone(document);
}
