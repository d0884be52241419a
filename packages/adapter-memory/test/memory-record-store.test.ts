import { expect } from 'chai';
import { StoreCapacityExceededError } from '@tessera/core';
import { FixedClock, describeRecordStores, rejectionOf } from '@tessera/testkit';
import { MemoryRecordStores } from '@tessera/adapter-memory';

const MINUTE = 60_000;

describe('memory adapter: record stores', () => {
  describeRecordStores('MemoryRecordStores', (clock) => new MemoryRecordStores(clock));

  it('frees expired records of every namespace on a sweep, and only those', async () => {
    const clock = new FixedClock();
    const stores = new MemoryRecordStores(clock);
    const [tokens, steps] = [stores.namespace('tokens'), stores.namespace('steps')];
    await tokens.put('short', 1, clock.now() + MINUTE, { group: 'g', dueAt: clock.now() });
    await tokens.put('long', 2, clock.now() + 2 * MINUTE, { group: 'g' });
    await steps.put('short', 3, clock.now() + MINUTE);
    clock.advance(MINUTE);
    expect(stores.size).to.equal(3);
    expect(stores.sweep()).to.equal(2);
    expect(stores.size).to.equal(1);
    expect((await tokens.findByGroup('g')).map((record) => record.id)).to.deep.equal(['long']);
  });

  it('refuses a new id in a full namespace (503) rather than forget a live record, and makes room from expired ones', async () => {
    const clock = new FixedClock();
    const stores = new MemoryRecordStores(clock);
    const full = stores.namespace('full', { maxRecords: 2 });
    await full.put('a', 1, clock.now() + MINUTE);
    await full.put('b', 1, clock.now() + 2 * MINUTE);
    expect(await rejectionOf(full.put('c', 1, clock.now() + MINUTE))).to.be.instanceOf(StoreCapacityExceededError);
    expect(await rejectionOf(full.insert('c', 1, clock.now() + MINUTE))).to.be.instanceOf(StoreCapacityExceededError);
    expect(await full.get('c')).to.equal(undefined);
    await full.put('a', 2, clock.now() + MINUTE);
    expect(await full.get('a')).to.equal(2, 'an id held already is rewritten');
    await stores.namespace('other').put('c', 1, clock.now() + MINUTE);
    clock.advance(MINUTE);
    await full.put('c', 3, clock.now() + MINUTE);
    expect([await full.get('a'), await full.get('b'), await full.get('c')]).to.deep.equal([undefined, 1, 3]);
  });

  it('refuses a namespace limit that is not a positive integer', () => {
    expect(() => new MemoryRecordStores(new FixedClock()).namespace('n', { maxRecords: 0 })).to.throw(RangeError);
  });
});
