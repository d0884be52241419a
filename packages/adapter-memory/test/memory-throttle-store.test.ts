import { expect } from 'chai';
import { MemoryThrottleStore } from '@tessera/adapter-memory';

describe('MemoryThrottleStore: bounded memory', () => {
  it('forgets the least recently written key when full, keeping the rest', async () => {
    const store = new MemoryThrottleStore({ maxKeys: 2 });
    await store.recordFailure('a', 0, 60_000);
    await store.recordFailure('b', 0, 60_000);
    await store.recordFailure('a', 1, 60_000);
    await store.recordFailure('c', 2, 60_000);
    expect(await store.get('b')).to.equal(undefined);
    expect(await store.get('a')).to.include({ failures: 2 });
    expect(await store.get('c')).to.include({ failures: 1 });
  });

  it('keeps a locked key when full, forgetting the oldest unlocked one instead', async () => {
    const store = new MemoryThrottleStore({ maxKeys: 2 });
    await store.lock('target', 0, 60_000);
    await store.recordFailure('a', 1, 60_000);
    await store.recordFailure('b', 2, 60_000);
    expect(await store.get('target')).to.include({ lockedUntil: 60_000 });
    expect(await store.get('a')).to.equal(undefined);
    expect(await store.get('b')).to.include({ failures: 1 });
  });
});
