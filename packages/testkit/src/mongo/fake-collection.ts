import { Query, find, update, updateOne } from 'mingo';

type Document = Record<string, unknown>;
type Filter = Record<string, unknown>;

/** One call the adapter made: the method and its arguments, as sent. */
export interface RecordedCall {
  readonly method: string;
  readonly args: readonly unknown[];
}

/**
 * An in-memory stand-in for a driver `Collection`, with the methods the Mongo adapter uses. Filters,
 * updates and sorts are evaluated by mingo (MongoDB's query language for objects), every call is
 * recorded so tests can pin the exact queries, and `failWith` makes every call throw (a lost database).
 */
export class FakeCollection {
  readonly calls: RecordedCall[] = [];
  documents: Document[] = [];
  failWith: Error | undefined;

  insertOne(document: Document) {
    this.record('insertOne', document);
    if (this.documents.some((stored) => stored._id === document._id)) throw duplicateKey(document._id);
    this.documents.push(structuredClone(document));
    return Promise.resolve({ acknowledged: true, insertedId: document._id });
  }

  findOne(filter: Filter) {
    this.record('findOne', filter);
    return Promise.resolve(copy(this.first(filter)));
  }

  find(filter: Filter) {
    this.record('find', filter);
    return {
      sort: (order: Record<string, 1 | -1>) => {
        this.record('find.sort', order);
        const sorted = () => find(this.documents, filter).sort(order).all().map((found) => structuredClone(found));
        return {
          toArray: () => Promise.resolve(sorted()),
          limit: (count: number) => {
            this.record('find.limit', count);
            return { toArray: () => Promise.resolve(sorted().slice(0, count)) };
          },
        };
      },
    };
  }

  findOneAndDelete(filter: Filter) {
    this.record('findOneAndDelete', filter);
    const found = this.first(filter);
    if (found !== undefined) this.documents = this.documents.filter((stored) => stored !== found);
    return Promise.resolve(copy(found));
  }

  /** `changes` is update operators, or an aggregation pipeline (MongoDB 4.2+) whose result replaces the document. */
  findOneAndUpdate(filter: Filter, changes: Document | Document[], options: { returnDocument?: 'before' | 'after'; upsert?: boolean } = {}) {
    this.record('findOneAndUpdate', filter, changes, options);
    const found = this.first(filter);
    if (Array.isArray(changes)) return this.updateByPipeline(filter, found, changes, options);
    if (found === undefined) return options.upsert === true ? this.upsert(filter, changes, options.returnDocument) : Promise.resolve(null);
    const before = structuredClone(found);
    // $setOnInsert applies only when an upsert inserts.
    const { $setOnInsert: _onInsertOnly, ...onUpdate } = changes;
    update(found, onUpdate);
    return Promise.resolve(options.returnDocument === 'after' ? structuredClone(found) : before);
  }

  replaceOne(filter: Filter, replacement: Document, options: { upsert?: boolean } = {}) {
    this.record('replaceOne', filter, replacement, options);
    const found = this.first(filter);
    if (found === undefined && options.upsert !== true) return Promise.resolve({ matchedCount: 0, upsertedCount: 0 });
    const _id = found?._id ?? filter._id ?? `fake-${this.documents.length + 1}`;
    this.documents = this.documents.filter((stored) => stored !== found);
    this.documents.push({ _id, ...structuredClone(replacement) });
    return Promise.resolve({ matchedCount: found === undefined ? 0 : 1, upsertedCount: found === undefined ? 1 : 0 });
  }

  deleteOne(filter: Filter) {
    this.record('deleteOne', filter);
    const found = this.first(filter);
    this.documents = this.documents.filter((stored) => stored !== found);
    return Promise.resolve({ acknowledged: true, deletedCount: found === undefined ? 0 : 1 });
  }

  deleteMany(filter: Filter) {
    this.record('deleteMany', filter);
    const query = new Query(filter);
    const kept = this.documents.filter((stored) => !query.test(stored));
    const deletedCount = this.documents.length - kept.length;
    this.documents = kept;
    return Promise.resolve({ acknowledged: true, deletedCount });
  }

  countDocuments(filter: Filter) {
    this.record('countDocuments', filter);
    const query = new Query(filter);
    return Promise.resolve(this.documents.filter((stored) => query.test(stored)).length);
  }

  createIndex(keys: Record<string, unknown>, options: Record<string, unknown> = {}) {
    this.record('createIndex', keys, options);
    return Promise.resolve(typeof options.name === 'string' ? options.name : Object.keys(keys).join('_'));
  }

  /** The calls of one method, arguments only: what the tests pin. */
  argsOf(method: string): readonly (readonly unknown[])[] {
    return this.calls.filter((call) => call.method === method).map((call) => call.args);
  }

  /** An upsert that inserts: the filter's `_id`, then $setOnInsert with the other changes; a taken `_id` is E11000. */
  private upsert(filter: Filter, changes: Document, returnDocument: 'before' | 'after' | undefined) {
    if (this.documents.some((stored) => stored._id === filter._id)) throw duplicateKey(filter._id);
    const { $setOnInsert, $set, ...others } = changes as { $setOnInsert?: Document; $set?: Document };
    const inserted: Document = { _id: filter._id };
    update(inserted, { ...others, $set: { ...$setOnInsert, ...$set } });
    this.documents.push(inserted);
    return Promise.resolve(returnDocument === 'after' ? structuredClone(inserted) : null);
  }

  /**
   * A pipeline update: the stages run on the found document or, for an upsert that inserts, on one
   * holding only the filter's `_id` (the server starts from the filter's equality fields); the result
   * replaces the document. A stage an update pipeline does not allow throws, as on the server.
   */
  private updateByPipeline(filter: Filter, found: Document | undefined, pipeline: Document[], options: { returnDocument?: 'before' | 'after'; upsert?: boolean }) {
    if (found === undefined && options.upsert !== true) return Promise.resolve(null);
    if (found === undefined && this.documents.some((stored) => stored._id === filter._id)) throw duplicateKey(filter._id);
    const updated: [Document] = [structuredClone(found ?? { _id: filter._id })];
    updateOne(updated, {}, pipeline as Parameters<typeof updateOne>[2]);
    const [after] = updated;
    if (found === undefined) this.documents.push(after);
    else this.documents[this.documents.indexOf(found)] = after;
    return Promise.resolve(options.returnDocument === 'after' ? structuredClone(after) : copy(found));
  }

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args: structuredClone(args) });
    if (this.failWith !== undefined) throw this.failWith;
  }

  private first(filter: Filter): Document | undefined {
    const query = new Query(filter);
    return this.documents.find((stored) => query.test(stored));
  }
}

/** The server's duplicate key error, as far as callers look at it: its code. */
function duplicateKey(id: unknown): Error {
  return Object.assign(new Error(`E11000 duplicate key error: _id ${String(id)}`), { code: 11000 });
}

function copy(document: Document | undefined): Document | null {
  return document === undefined ? null : structuredClone(document);
}
