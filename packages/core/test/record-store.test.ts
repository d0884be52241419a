import { expect } from 'chai';
import { StoreUnavailableError, checkRecordNamespace, copyHeldRecordValue, copyRecordValue, decodeRecordValue, encodeRecordValue, updateRecord, type RecordStore } from '@tessera/core';
import { FixedClock, MapRecordStores, rejectionOf } from '@tessera/testkit';

const MINUTE = 60_000;

describe('updateRecord: read-modify-write over read and replace', () => {
  let clock: FixedClock;
  let records: RecordStore;

  beforeEach(() => {
    clock = new FixedClock();
    records = new MapRecordStores(clock).namespace('counters');
  });

  /** The store, with another writer's put landing between each read and the replace after it. */
  function contended(store: RecordStore): { store: RecordStore; reads: () => number } {
    let reads = 0;
    return {
      store: {
        ...store,
        read: async (id) => {
          reads += 1;
          const current = await store.read(id);
          await store.put(id, `other writer ${reads}`, clock.now() + MINUTE);
          return current;
        },
      },
      reads: () => reads,
    };
  }

  it('gives up with StoreUnavailableError after `attempts` reads, each lost to another writer, and writes nothing of its own', async () => {
    const { store, reads } = contended(records);
    const error = await rejectionOf(updateRecord(store, 'a', () => ({ value: 'mine', expiresAt: clock.now() + MINUTE }), 3));
    expect(error).to.be.instanceOf(StoreUnavailableError);
    expect(error.message).to.equal('A record kept changing under 3 attempts to update it; try again');
    expect(reads()).to.equal(3);
    expect(await records.get('a')).to.equal('other writer 3');
  });

  it('asks the change again with the record as it is now, after each lost attempt', async () => {
    const seen: unknown[] = [];
    let lost = 0;
    // The first two replaces lose to another writer, who got in first.
    const losing: RecordStore = {
      ...records,
      replace: async (...args) => {
        if (lost === 2) return records.replace(...args);
        lost += 1;
        await records.put('a', `other writer ${lost}`, clock.now() + MINUTE);
        return false;
      },
    };
    const written = await updateRecord(losing, 'a', (current) => {
      seen.push(current?.value);
      return { value: 'mine', expiresAt: clock.now() + MINUTE };
    });
    expect(seen).to.deep.equal([undefined, 'other writer 1', 'other writer 2']);
    expect(written).to.deep.equal({ value: 'mine', expiresAt: clock.now() + MINUTE });
    expect(await records.get('a')).to.equal('mine');
  });

  it('writes only the value, lifetime, group and due time of what the change returns', async () => {
    await records.put('a', 1, clock.now() + MINUTE, { group: 'g', dueAt: clock.now() });
    const before = (await records.read('a'))!;
    // The record read, version and all, spread into the change: its version is no part of the write.
    await updateRecord(records, 'a', (current) => current && { ...current, value: 2 });
    const { version, ...stored } = (await records.read('a'))!;
    expect(stored).to.deep.equal({ value: 2, expiresAt: clock.now() + MINUTE, group: 'g', dueAt: clock.now() });
    expect(version).not.to.equal(before.version);
  });
});

describe('record store helpers', () => {
  it('accept namespace names of lowercase letters, digits, -, _ and ., a letter first, at most 64 characters', () => {
    expect(checkRecordNamespace('login.form-tokens_2')).to.equal('login.form-tokens_2');
    expect(() => checkRecordNamespace('tickets:all')).to.throw(RangeError, 'Record namespace "tickets:all" is not a name');
  });

  it('encode values as JSON text and read them back, refusing numbers JSON would turn into null', () => {
    const value = { list: [1, 'two', null, { deep: true }], 'a.b': -0.5 };
    expect(decodeRecordValue(encodeRecordValue(value))).to.deep.equal(value);
    expect(() => encodeRecordValue({ n: Number.NaN })).to.throw(RangeError, "A record's value holds NaN, which JSON cannot hold");
  });

  it('name a stored value that is not JSON without showing it', () => {
    expect(() => decodeRecordValue('{"secret": "TGT-1-abc"')).to.throw('A stored record is not JSON').with.property('message').that.does.not.include('TGT-1');
  });

  it('copy a value as JSON would give it back, sharing no object with it', () => {
    const inner = { scope: 'openid', claims: ['sub', 'email'] };
    const value = { inner, list: [inner, 1, 'two', null, true], deep: [[{ a: [] }]], empty: {} };
    const copy = copyRecordValue(value);
    expect(copy).to.deep.equal(value);
    expect(copy.inner).to.not.equal(inner);
    expect(copy.list[0]).to.not.equal(inner);
    expect(copy.inner.claims).to.not.equal(inner.claims);
  });

  it('copy what JSON would not keep as JSON reads it back', () => {
    class Token {
      constructor(readonly jti: string) {}
    }
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const withProto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    // An array is printed by its toJSON too, as any object is.
    const listAsText = Object.assign([1, 2], { toJSON: () => 'a list as text' });
    const strange: unknown[] = [
      { kept: 1, gone: undefined, fn: () => 1, sym: Symbol('s') },
      [undefined, () => 1, Symbol('s'), -0],
      -0,
      { at: new Date(Date.UTC(2026, 11, 7)) },
      { token: new Token('abc') },
      { toJSON: () => 'as text' },
      sparse,
      listAsText,
      { nested: [listAsText] },
      withProto,
      Object.assign(Object.create(null) as object, { plain: 'yes' }),
      'text',
      null,
    ];
    for (const value of strange) {
      const copy = copyRecordValue(value as never);
      expect(copy, JSON.stringify(value)).to.deep.equal(JSON.parse(JSON.stringify(value)));
      expect(Object.is(copy, -0)).to.equal(false);
    }
    const copiedProto = copyRecordValue(withProto as never) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copiedProto)).to.equal(Object.prototype);
    expect(Object.keys(copiedProto)).to.deep.equal(['__proto__', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
  });

  it("copy again what copyRecordValue made (a store's read) to the same JSON, sharing nothing", () => {
    const values: unknown[] = [
      { inner: { scope: 'openid', claims: ['sub', 'email'] }, list: [{ a: 1 }, 1, 'two', null, true, [[]]], empty: {} },
      [undefined, { gone: undefined, kept: -0 }],
      JSON.parse('{"__proto__": {"polluted": true}, "a": [1]}'),
      'text',
      null,
    ];
    for (const value of values) {
      const held = copyRecordValue(value as never);
      const copy = copyHeldRecordValue(held);
      expect(copy, JSON.stringify(value)).to.deep.equal(JSON.parse(JSON.stringify(value)));
      if (typeof held === 'object' && held !== null) {
        expect(copy).to.not.equal(held);
        for (const [key, item] of Object.entries(held)) if (typeof item === 'object' && item !== null) expect((copy as Record<string, unknown>)[key], key).to.not.equal(item);
      }
    }
    const withProto = copyHeldRecordValue(copyRecordValue(JSON.parse('{"__proto__": {"polluted": true}}') as never)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(withProto)).to.equal(Object.prototype);
    expect(Object.keys(withProto)).to.deep.equal(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
  });

  it('refuse a number JSON cannot hold, at any depth, and a cycle, as encoding does', () => {
    expect(() => copyRecordValue({ list: [{ n: Number.POSITIVE_INFINITY }] } as never)).to.throw(RangeError, "A record's value holds Infinity, which JSON cannot hold");
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => copyRecordValue(cyclic as never)).to.throw(TypeError);
  });
});
