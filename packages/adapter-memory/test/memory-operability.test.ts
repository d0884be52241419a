import { expect } from 'chai';
import { MemoryTicketStore, memoryStorageReadiness } from '@tessera/adapter-memory';
import { FixedClock, aServiceTicket, aTicketGrantingTicket } from '@tessera/testkit';

// docs/protocol.md §10 — the memory adapter's readiness and its live TGT count (tessera_tgts_live)
describe('memory storage: readiness and live TGT count (docs/protocol.md §10)', () => {
  it('is always ready, under the component name storage', async () => {
    expect(memoryStorageReadiness.name).to.equal('storage');
    await memoryStorageReadiness.check();
  });

  it('counts TGTs as they are saved and removed; STs never count', async () => {
    const clock = new FixedClock();
    const store = new MemoryTicketStore(clock);
    const [first, second] = [aTicketGrantingTicket(clock), aTicketGrantingTicket(clock)];
    await store.save(first);
    await store.save(second);
    const st = aServiceTicket(clock, { tgtId: first.id });
    await store.save(st);
    expect(await store.liveTgts()).to.equal(2);

    await store.consume(st.id);
    await store.touch(first.id, clock.now() + 60_000);
    await store.removeDescendants(first.id);
    expect(await store.liveTgts()).to.equal(2);

    await store.remove(first.id);
    await store.remove(first.id);
    await store.remove('TGT-1-unknown');
    expect(await store.liveTgts()).to.equal(1);
  });

  it('keeps counting an expired TGT until the sweep removes it (the stated precision)', async () => {
    const clock = new FixedClock();
    const store = new MemoryTicketStore(clock);
    await store.save(aTicketGrantingTicket(clock, { expiresAt: clock.now() + 1000 }));
    await store.save(aTicketGrantingTicket(clock, { expiresAt: clock.now() + 60_000 }));
    clock.advanceSeconds(2);
    expect(await store.liveTgts()).to.equal(2);
    store.sweep();
    expect(await store.liveTgts()).to.equal(1);
  });
});
