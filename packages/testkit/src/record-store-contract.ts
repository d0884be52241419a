import { expect } from 'chai';
import { updateRecord, type FoundRecord, type JsonValue, type RecordStore, type RecordStores } from '@tessera/core';
import { FixedClock } from './fixed-clock.js';
import { rejectionOf } from './rejection.js';

export type RecordStoresFactory = (clock: FixedClock) => RecordStores | Promise<RecordStores>;

export interface RecordStoresHooks {
  /** Runs after each case, e.g. to empty a shared database. */
  readonly afterEach?: () => Promise<void>;
  /**
   * Another node's RecordStores over the data of the one the factory made last. Without it (one
   * process is the whole cluster, as with memory) the cases across nodes run on that one.
   */
  readonly anotherNode?: (clock: FixedClock) => RecordStores | Promise<RecordStores>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Concurrent callers in the atomicity cases. */
const CALLERS = 20;

type Counter = { readonly count: number };

interface Fixture {
  readonly clock: FixedClock;
  readonly stores: RecordStores;
  /** Another node's stores over the same data (the same stores where one process is the cluster). */
  readonly other: RecordStores;
  /** The namespace most cases use, opened on `stores`. */
  readonly records: RecordStore;
}

const ids = (found: readonly FoundRecord[]): string[] => found.map((record) => record.id);

/**
 * The RecordStores contract (core's ports/record-store.ts), for any adapter. Each case gets fresh
 * stores on a FixedClock set to the real time, so a real server's own garbage collection (a Redis
 * TTL, a Mongo TTL index) never runs during a case: every expiry here is the clock's.
 */
export function describeRecordStores(name: string, factory: RecordStoresFactory, hooks: RecordStoresHooks = {}): void {
  describe(`RecordStores contract: ${name}`, () => {
    let fixture: Fixture;

    beforeEach(async () => {
      const clock = new FixedClock(Date.now());
      const stores = await factory(clock);
      fixture = { clock, stores, other: (await hooks.anotherNode?.(clock)) ?? stores, records: stores.namespace('contract') };
    });
    afterEach(async () => {
      await hooks.afterEach?.();
    });

    describe('put, get and delete', () => {
      it('returns what was put, and undefined for an id never put', async () => {
        const { clock, records } = fixture;
        await records.put('a', { user: 'casuser', n: 1 }, clock.now() + MINUTE);
        expect(await records.get('a')).to.deep.equal({ user: 'casuser', n: 1 });
        expect(await records.get('b')).to.equal(undefined);
      });

      it('keeps every kind of JSON value as it was, and ids compared exactly', async () => {
        const { clock, records } = fixture;
        const values: JsonValue[] = [
          null,
          true,
          0,
          -12.5,
          Number.MAX_SAFE_INTEGER,
          '',
          'naïve 𝄞 "quoted" \\ \n',
          [],
          [1, 'two', [null, false]],
          {},
          { 'a.b': 1, $set: 'not an operator', '': 'empty key', 'https://app.example.org/': { nested: [{ deep: true }] } },
        ];
        for (const [index, value] of values.entries()) await records.put(`id-${index}`, value, clock.now() + MINUTE);
        for (const [index, value] of values.entries()) expect(await records.get(`id-${index}`), JSON.stringify(value)).to.deep.equal(value);
        await records.put('Id', 'upper', clock.now() + MINUTE);
        await records.put('id', 'lower', clock.now() + MINUTE);
        await records.put('', 'empty id', clock.now() + MINUTE);
        await records.put('a:b {c} d', 'separators', clock.now() + MINUTE);
        expect([await records.get('Id'), await records.get('id'), await records.get(''), await records.get('a:b {c} d')]).to.deep.equal(['upper', 'lower', 'empty id', 'separators']);
      });

      it('copies values: changing an object after put or get changes no record', async () => {
        const { clock, records } = fixture;
        const written = { list: [1, 2] };
        await records.put('a', written, clock.now() + MINUTE);
        written.list.push(3);
        const read = (await records.get('a')) as { list: number[] };
        read.list.push(4);
        expect(await records.get('a')).to.deep.equal({ list: [1, 2] });
      });

      it('replaces the whole record on a second put: value, lifetime, group and due time', async () => {
        const { clock, records } = fixture;
        await records.put('a', 'first', clock.now() + HOUR, { group: 'g1', dueAt: clock.now() });
        await records.put('a', 'second', clock.now() + MINUTE);
        expect(await records.get('a')).to.equal('second');
        expect(await records.findByGroup('g1')).to.deep.equal([]);
        expect(await records.due(clock.now(), 10)).to.deep.equal([]);
        clock.advance(MINUTE);
        expect(await records.get('a')).to.equal(undefined);
      });

      it('deletes a record, live or not, and takes an unknown id in its stride', async () => {
        const { clock, records } = fixture;
        await records.put('a', 1, clock.now() + MINUTE);
        await records.delete('a');
        await records.delete('never-put');
        expect(await records.get('a')).to.equal(undefined);
        expect(await records.read('a')).to.equal(undefined);
        expect(await records.insert('a', 2, clock.now() + MINUTE)).to.equal(true);
      });

      it('refuses a number JSON cannot hold, a time that is not epoch ms and an empty group, writing nothing', async () => {
        const { clock, records } = fixture;
        const later = clock.now() + MINUTE;
        for (const attempt of [
          () => records.put('a', { n: Number.NaN }, later),
          () => records.put('a', [Number.POSITIVE_INFINITY], later),
          () => records.put('a', 1, later + 0.5),
          () => records.put('a', 1, Number.NaN),
          () => records.insert('a', 1, later, { dueAt: Number.POSITIVE_INFINITY }),
          () => records.replace('a', undefined, 1, later, { group: '' }),
        ]) {
          expect(await rejectionOf(attempt())).to.be.instanceOf(RangeError);
        }
        expect(await records.read('a')).to.equal(undefined);
      });
    });

    describe('expiry, by the clock', () => {
      it('keeps a record until its expiresAt, then no method sees it', async () => {
        const { clock, records } = fixture;
        const expiresAt = clock.now() + MINUTE;
        await records.put('a', 'v', expiresAt, { group: 'g', dueAt: clock.now() });
        clock.set(expiresAt - 1);
        expect(await records.get('a')).to.equal('v');
        expect(ids(await records.findByGroup('g'))).to.deep.equal(['a']);
        expect(ids(await records.due(clock.now(), 10))).to.deep.equal(['a']);
        clock.set(expiresAt);
        expect(await records.get('a')).to.equal(undefined);
        expect(await records.read('a')).to.equal(undefined);
        expect(await records.take('a')).to.equal(undefined);
        expect(await records.findByGroup('g')).to.deep.equal([]);
        expect(await records.due(clock.now(), 10)).to.deep.equal([]);
      });

      it('never shows a record put with an expiresAt that is not after now', async () => {
        const { clock, records } = fixture;
        await records.put('a', 'v', clock.now());
        await records.put('b', 'v', clock.now() - HOUR);
        expect(await records.get('a')).to.equal(undefined);
        expect(await records.get('b')).to.equal(undefined);
      });

      it('lets an expired record be inserted again, as if it had never been', async () => {
        const { clock, records } = fixture;
        await records.put('a', 'old', clock.now() + MINUTE, { group: 'g', dueAt: clock.now() });
        clock.advance(MINUTE);
        expect(await records.insert('a', 'new', clock.now() + MINUTE)).to.equal(true);
        expect(await records.read('a')).to.deep.include({ value: 'new', expiresAt: clock.now() + MINUTE }).and.not.have.any.keys('group', 'dueAt');
        expect(await records.findByGroup('g')).to.deep.equal([]);
        expect(await records.due(clock.now(), 10)).to.deep.equal([]);
      });
    });

    describe('insert', () => {
      it('writes only when the id has no live record: true once, then false, the first value kept', async () => {
        const { clock, records } = fixture;
        expect(await records.insert('a', 'first', clock.now() + MINUTE)).to.equal(true);
        expect(await records.insert('a', 'second', clock.now() + HOUR)).to.equal(false);
        expect(await records.read('a')).to.deep.include({ value: 'first', expiresAt: clock.now() + MINUTE });
      });

      it(`gives true to exactly one of ${CALLERS} concurrent inserts of an id, whose value is kept`, async () => {
        const { clock, records } = fixture;
        const results = await Promise.all(Array.from({ length: CALLERS }, (_, n) => records.insert('a', n, clock.now() + MINUTE)));
        expect(results.filter(Boolean)).to.have.length(1);
        expect(await records.get('a')).to.equal(results.indexOf(true));
      });
    });

    describe('take', () => {
      it('returns the value once, then undefined, and the record is gone', async () => {
        const { clock, records } = fixture;
        await records.put('a', { n: 1 }, clock.now() + MINUTE);
        expect(await records.take('a')).to.deep.equal({ n: 1 });
        expect(await records.take('a')).to.equal(undefined);
        expect(await records.get('a')).to.equal(undefined);
        expect(await records.take('never-put')).to.equal(undefined);
      });

      it(`gives the value to exactly one of ${CALLERS} concurrent takes`, async () => {
        const { clock, records } = fixture;
        await records.put('a', 'once', clock.now() + MINUTE);
        const results = await Promise.all(Array.from({ length: CALLERS }, () => records.take('a')));
        expect(results.filter((taken) => taken !== undefined)).to.deep.equal(['once']);
      });
    });

    describe('read and replace (compare-and-set)', () => {
      it('reads the value, version, expiry, group and due time, and writes a new version with every write', async () => {
        const { clock, records } = fixture;
        await records.put('a', 'v1', clock.now() + MINUTE, { group: 'g', dueAt: clock.now() + 1 });
        const first = await records.read('a');
        expect(first).to.deep.include({ value: 'v1', expiresAt: clock.now() + MINUTE, group: 'g', dueAt: clock.now() + 1 });
        expect(first?.version).to.be.a('string').and.have.length.above(0);
        await records.put('a', 'v1', clock.now() + MINUTE, { group: 'g', dueAt: clock.now() + 1 });
        const second = await records.read('a');
        expect(await records.replace('a', second?.version, 'v2', clock.now() + MINUTE)).to.equal(true);
        const third = await records.read('a');
        expect(third).to.deep.include({ value: 'v2' }).and.not.have.any.keys('group', 'dueAt');
        expect(new Set([first?.version, second?.version, third?.version]).size).to.equal(3);
      });

      it('replaces only while the record has the expected version', async () => {
        const { clock, records } = fixture;
        await records.put('a', 1, clock.now() + MINUTE);
        const { version } = (await records.read('a'))!;
        expect(await records.replace('a', version, 2, clock.now() + MINUTE)).to.equal(true);
        expect(await records.replace('a', version, 3, clock.now() + MINUTE)).to.equal(false);
        expect(await records.get('a')).to.equal(2);
        expect(await records.replace('b', version, 3, clock.now() + MINUTE)).to.equal(false);
        expect(await records.get('b')).to.equal(undefined);
      });

      it('with no expected version, writes only where there is no live record', async () => {
        const { clock, records } = fixture;
        expect(await records.replace('a', undefined, 1, clock.now() + MINUTE)).to.equal(true);
        expect(await records.replace('a', undefined, 2, clock.now() + MINUTE)).to.equal(false);
        expect(await records.get('a')).to.equal(1);
        clock.advance(MINUTE);
        expect(await records.replace('a', undefined, 3, clock.now() + MINUTE)).to.equal(true);
        expect(await records.get('a')).to.equal(3);
      });

      it('never takes an expired record, or one deleted and written again, for the version read before', async () => {
        const { clock, records } = fixture;
        await records.put('a', 1, clock.now() + MINUTE);
        const before = (await records.read('a'))!.version;
        clock.advance(MINUTE);
        expect(await records.replace('a', before, 2, clock.now() + MINUTE)).to.equal(false);
        await records.put('b', 1, clock.now() + MINUTE);
        const read = (await records.read('b'))!.version;
        await records.delete('b');
        await records.put('b', 1, clock.now() + MINUTE);
        expect(await records.replace('b', read, 2, clock.now() + MINUTE)).to.equal(false);
        expect(await records.get('b')).to.equal(1);
      });

      it('changes nothing when it refuses to write: value, lifetime, group and due time stay', async () => {
        const { clock, records } = fixture;
        await records.put('a', 1, clock.now() + MINUTE, { group: 'g', dueAt: clock.now() });
        const before = await records.read('a');
        expect(await records.insert('a', 2, clock.now() + HOUR, { group: 'h', dueAt: clock.now() + HOUR })).to.equal(false);
        expect(await records.replace('a', 'not-its-version', 3, clock.now() + HOUR, { group: 'h', dueAt: clock.now() + HOUR })).to.equal(false);
        expect(await records.read('a')).to.deep.equal(before);
        expect(ids(await records.findByGroup('g'))).to.deep.equal(['a']);
        expect(await records.findByGroup('h')).to.deep.equal([]);
        expect(ids(await records.due(clock.now(), 10))).to.deep.equal(['a']);
      });

      it(`gives true to exactly one of ${CALLERS} concurrent replaces of one version, whose value is kept`, async () => {
        const { clock, records } = fixture;
        await records.put('a', -1, clock.now() + MINUTE);
        const { version } = (await records.read('a'))!;
        const results = await Promise.all(Array.from({ length: CALLERS }, (_, n) => records.replace('a', version, n, clock.now() + MINUTE)));
        expect(results.filter(Boolean)).to.have.length(1);
        expect(await records.get('a')).to.equal(results.indexOf(true));
      });
    });

    describe('updateRecord over read and replace', () => {
      it(`counts every one of ${CALLERS} concurrent increments`, async () => {
        const { clock, stores } = fixture;
        const counters = stores.namespace<Counter>('counters');
        const increment = () => updateRecord(counters, 'c', (current) => ({ value: { count: (current?.value.count ?? 0) + 1 }, expiresAt: clock.now() + MINUTE }), CALLERS);
        const written = await Promise.all(Array.from({ length: CALLERS }, increment));
        expect(await counters.get('c')).to.deep.equal({ count: CALLERS });
        expect(written.map((write) => write?.value.count).sort((a, b) => a! - b!)).to.deep.equal(Array.from({ length: CALLERS }, (_, n) => n + 1));
      });

      it('writes nothing when the change declines, and what it returns otherwise, group and due time included', async () => {
        const { clock, records } = fixture;
        expect(await updateRecord(records, 'a', () => undefined)).to.equal(undefined);
        expect(await records.read('a')).to.equal(undefined);
        await records.put('a', 1, clock.now() + MINUTE, { group: 'g', dueAt: clock.now() + HOUR });
        await updateRecord(records, 'a', (current) => current && { ...current, value: 2 });
        expect(await records.read('a')).to.deep.include({ value: 2, group: 'g', dueAt: clock.now() + HOUR });
      });
    });

    describe('groups', () => {
      it('finds the live records of a group with their ids and values, and no other group’s', async () => {
        const { clock, records } = fixture;
        await records.put('a', 'A', clock.now() + MINUTE, { group: 'g1' });
        await records.put('b', 'B', clock.now() + HOUR, { group: 'g1' });
        await records.put('c', 'C', clock.now() + MINUTE, { group: 'g2' });
        await records.put('d', 'D', clock.now() + MINUTE);
        const found = [...(await records.findByGroup('g1'))].sort((x, y) => x.id.localeCompare(y.id));
        expect(found.map(({ id, value, group, expiresAt }) => ({ id, value, group, expiresAt }))).to.deep.equal([
          { id: 'a', value: 'A', group: 'g1', expiresAt: clock.now() + MINUTE },
          { id: 'b', value: 'B', group: 'g1', expiresAt: clock.now() + HOUR },
        ]);
        expect(found.every((record) => typeof record.version === 'string')).to.equal(true);
        expect(await records.findByGroup('g3')).to.deep.equal([]);
        clock.advance(MINUTE);
        expect(ids(await records.findByGroup('g1'))).to.deep.equal(['b']);
      });

      it('follows a record through writes: a put, replace or insert into another group or none moves it', async () => {
        const { clock, records } = fixture;
        await records.put('a', 1, clock.now() + MINUTE, { group: 'g1' });
        await records.put('b', 1, clock.now() + MINUTE, { group: 'g1' });
        await records.put('c', 1, clock.now() + MINUTE, { group: 'g1' });
        await records.put('a', 2, clock.now() + MINUTE, { group: 'g2' });
        expect(await records.replace('b', (await records.read('b'))!.version, 2, clock.now() + MINUTE)).to.equal(true);
        await records.put('c', 1, clock.now(), { group: 'g1' });
        expect(await records.insert('c', 2, clock.now() + MINUTE, { group: 'g2' })).to.equal(true);
        expect(await records.findByGroup('g1')).to.deep.equal([]);
        expect(ids(await records.findByGroup('g2')).sort()).to.deep.equal(['a', 'c']);
        await records.put('a', 3, clock.now() + MINUTE, { group: 'g1' });
        expect(ids(await records.findByGroup('g1'))).to.deep.equal(['a']);
      });

      it('forgets records taken or deleted', async () => {
        const { clock, records } = fixture;
        for (const id of ['a', 'b', 'c']) await records.put(id, id, clock.now() + MINUTE, { group: 'g' });
        await records.take('a');
        await records.delete('b');
        expect(ids(await records.findByGroup('g'))).to.deep.equal(['c']);
      });

      it('deletes every record of a group and nothing else, even a record that left the group', async () => {
        const { clock, records } = fixture;
        for (let n = 0; n < 30; n++) await records.put(`in-${n}`, n, clock.now() + MINUTE + n, { group: 'g' });
        await records.put('other', 1, clock.now() + MINUTE, { group: 'h' });
        await records.put('left', 1, clock.now() + MINUTE, { group: 'g' });
        await records.put('left', 2, clock.now() + MINUTE, { group: 'h' });
        await records.put('none', 1, clock.now() + MINUTE);
        await records.deleteGroup('g');
        expect(await records.findByGroup('g')).to.deep.equal([]);
        expect(await records.get('in-0')).to.equal(undefined);
        expect(await records.get('in-29')).to.equal(undefined);
        expect(ids(await records.findByGroup('h')).sort()).to.deep.equal(['left', 'other']);
        expect(await records.get('none')).to.equal(1);
        await records.deleteGroup('never-used');
      });

      it('puts a record written after deleteGroup back in the group', async () => {
        const { clock, records } = fixture;
        await records.put('a', 1, clock.now() + MINUTE, { group: 'g' });
        await records.deleteGroup('g');
        await records.put('a', 2, clock.now() + MINUTE, { group: 'g' });
        expect((await records.findByGroup('g')).map(({ id, value }) => ({ id, value }))).to.deep.equal([{ id: 'a', value: 2 }]);
      });
    });

    describe('due times', () => {
      it('lists the live records due at `now`, earliest first, at most `limit`, with their values', async () => {
        const { clock, records } = fixture;
        const t0 = clock.now();
        await records.put('late', 'L', t0 + HOUR, { dueAt: t0 + 3 * MINUTE });
        await records.put('first', 'F', t0 + HOUR, { dueAt: t0 + MINUTE });
        await records.put('second', 'S', t0 + HOUR, { dueAt: t0 + 2 * MINUTE });
        await records.put('undue', 'U', t0 + HOUR);
        expect(await records.due(t0, 10)).to.deep.equal([]);
        expect(ids(await records.due(t0 + MINUTE, 10))).to.deep.equal(['first']);
        const due = await records.due(t0 + 3 * MINUTE, 2);
        expect(due.map(({ id, value, dueAt }) => ({ id, value, dueAt }))).to.deep.equal([
          { id: 'first', value: 'F', dueAt: t0 + MINUTE },
          { id: 'second', value: 'S', dueAt: t0 + 2 * MINUTE },
        ]);
        expect(ids(await records.due(t0 + HOUR, 10))).to.deep.equal(['first', 'second', 'late']);
      });

      it('moves a due time with each write, and lists no record taken, deleted or written without one', async () => {
        const { clock, records } = fixture;
        const t0 = clock.now();
        for (const id of ['a', 'b', 'c', 'd', 'e']) await records.put(id, id, t0 + HOUR, { dueAt: t0 });
        expect(await records.replace('a', (await records.read('a'))!.version, 'a', t0 + HOUR, { dueAt: t0 + MINUTE })).to.equal(true);
        await records.put('b', 'b', t0 + HOUR);
        await records.take('c');
        await records.delete('d');
        await records.put('f', 'f', t0 + HOUR, { dueAt: t0 - MINUTE });
        expect(ids(await records.due(t0, 10))).to.deep.equal(['f', 'e']);
        expect(ids(await records.due(t0 + MINUTE, 10))).to.deep.equal(['f', 'e', 'a']);
        await records.put('f', 'f', t0 + HOUR, { dueAt: t0 + 2 * MINUTE });
        expect(ids(await records.due(t0 + 2 * MINUTE, 10))).to.deep.equal(['e', 'a', 'f']);
      });

      it('fills `limit` with live records past many that are gone', async () => {
        const { clock, records } = fixture;
        const t0 = clock.now();
        for (let n = 0; n < 12; n++) await records.put(`r${n}`, n, t0 + HOUR, { dueAt: t0 + n });
        for (let n = 0; n < 9; n++) await records.take(`r${n}`);
        expect(ids(await records.due(t0 + HOUR - 1, 2))).to.deep.equal(['r9', 'r10']);
        expect(ids(await records.due(t0 + HOUR - 1, 10))).to.deep.equal(['r9', 'r10', 'r11']);
      });
    });

    describe('namespaces', () => {
      it('keep their records apart: the same id, group or due time in two namespaces are two records', async () => {
        const { clock, stores, records } = fixture;
        const others = stores.namespace('contract-other');
        await records.put('a', 'mine', clock.now() + MINUTE, { group: 'g', dueAt: clock.now() });
        await others.put('a', 'theirs', clock.now() + MINUTE, { group: 'g', dueAt: clock.now() });
        expect(await others.take('a')).to.equal('theirs');
        expect(await records.get('a')).to.equal('mine');
        await others.put('b', 'theirs', clock.now() + MINUTE, { group: 'g', dueAt: clock.now() });
        expect(ids(await records.findByGroup('g'))).to.deep.equal(['a']);
        expect(ids(await records.due(clock.now(), 10))).to.deep.equal(['a']);
        await records.deleteGroup('g');
        expect(await others.get('b')).to.equal('theirs');
        expect(await records.insert('b', 'mine', clock.now() + MINUTE)).to.equal(true);
      });

      it('give a store over the same records when a name is opened again', async () => {
        const { clock, stores, records } = fixture;
        await records.put('a', 1, clock.now() + MINUTE);
        expect(await stores.namespace('contract').get('a')).to.equal(1);
      });

      it('refuse a name with a separator, a hash tag, upper case or no letter first', () => {
        const { stores } = fixture;
        for (const name of ['', 'a:b', 'a{b}', 'Login', '1abc', '-a', 'a b', 'a/b', 'x'.repeat(65)]) {
          expect(() => stores.namespace(name), JSON.stringify(name)).to.throw(RangeError);
        }
        for (const name of ['a', 'form-tokens', 'otp.steps_2', 'x'.repeat(64)]) expect(() => stores.namespace(name)).not.to.throw();
      });
    });

    describe('across nodes', () => {
      it('sees on one node what the other wrote, and lets one of concurrent inserts, takes and replaces on both win', async () => {
        const { clock, other, records } = fixture;
        const there = other.namespace('contract');
        await records.put('a', 1, clock.now() + MINUTE, { group: 'g', dueAt: clock.now() });
        expect(await there.get('a')).to.equal(1);
        expect(ids(await there.findByGroup('g'))).to.deep.equal(['a']);
        expect(ids(await there.due(clock.now(), 1))).to.deep.equal(['a']);
        const onEither = <R>(call: (store: RecordStore) => Promise<R>) => Promise.all(Array.from({ length: CALLERS }, (_, n) => call(n % 2 === 0 ? records : there)));
        expect((await onEither((store) => store.insert('b', 1, clock.now() + MINUTE))).filter(Boolean)).to.have.length(1);
        const { version } = (await there.read('b'))!;
        expect((await onEither((store) => store.replace('b', version, 2, clock.now() + MINUTE))).filter(Boolean)).to.have.length(1);
        expect((await onEither((store) => store.take('b'))).filter((taken) => taken !== undefined)).to.deep.equal([2]);
        await there.deleteGroup('g');
        expect(await records.get('a')).to.equal(undefined);
      });
    });
  });
}
