import { FakeCollection } from './fake-collection.js';

/** A stand-in for a driver `Db`: collections by name, created on first use, all failing on demand. */
export class FakeDatabase {
  private readonly byName = new Map<string, FakeCollection>();
  private failure: Error | undefined;

  collection(name: string): FakeCollection {
    let found = this.byName.get(name);
    if (found === undefined) {
      found = new FakeCollection();
      found.failWith = this.failure;
      this.byName.set(name, found);
    }
    return found;
  }

  /** Every collection, present and future, throws this from each call (undefined: the database is back). */
  failEveryCall(error: Error | undefined): void {
    this.failure = error;
    for (const collection of this.byName.values()) collection.failWith = error;
  }

  get names(): readonly string[] {
    return [...this.byName.keys()];
  }
}
