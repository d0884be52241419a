import { expect } from 'chai';
import type { TicketStore } from '@tessera/core';
import { aServiceTicket, aTicketGrantingTicket } from './builders.js';
import { FixedClock } from './fixed-clock.js';
import { describeAcrossNodes, describeConsumeAndTouch } from './ticket-store-atomic-cases.js';
import { saveTgtWithSt, type TicketStoreFixture } from './ticket-store-fixture.js';
import { describeExpiry, describeRemoval } from './ticket-store-lifecycle-cases.js';
import { describeProxyTickets } from './ticket-store-proxy-cases.js';

export type TicketStoreFactory = (clock: FixedClock) => TicketStore | Promise<TicketStore>;

export interface ContractHooks {
  /** Runs after each case, e.g. to empty a shared database. */
  readonly afterEach?: () => Promise<void>;
  /**
   * A second store over the data of the one the factory made last, as another node opens it. Without
   * it (one process is the whole cluster, as with memory) the cases across nodes run on that one store.
   */
  readonly anotherNode?: (clock: FixedClock) => TicketStore | Promise<TicketStore>;
}

/**
 * The TicketStore contract (core's ports/ticket-store.ts), for any adapter. Each case gets a fresh
 * store on a fresh FixedClock. Tickets are compared by deep equality only, so an adapter may copy or
 * serialise them.
 */
export function describeTicketStore(name: string, factory: TicketStoreFactory, hooks: ContractHooks = {}): void {
  describe(`TicketStore contract: ${name}`, () => {
    let fixture: TicketStoreFixture;
    const current = (): TicketStoreFixture => fixture;

    beforeEach(async () => {
      const clock = new FixedClock();
      const store = await factory(clock);
      fixture = { clock, store, other: (await hooks.anotherNode?.(clock)) ?? store };
    });
    afterEach(async () => {
      await hooks.afterEach?.();
    });

    describe('save and get', () => {
      it('returns a saved TGT with every field equal', async () => {
        const { clock, store } = current();
        const tgt = aTicketGrantingTicket(clock, { servicesGranted: 3 });
        await store.save(tgt);
        expect(await store.get(tgt.id)).to.deep.equal(tgt);
      });

      it('returns a saved ST with every field equal', async () => {
        const { clock, store } = current();
        const st = aServiceTicket(clock, { fromNewLogin: false, authenticatedAt: clock.now() - 60_000 });
        await store.save(st);
        expect(await store.get(st.id)).to.deep.equal(st);
      });

      it('returns undefined for an unknown id', async () => {
        await saveTgtWithSt(current());
        expect(await current().store.get('TGT-999-unknown-test')).to.equal(undefined);
      });

      it('never changes a ticket by reading it', async () => {
        const { tgt, st } = await saveTgtWithSt(current());
        const { store } = current();
        await store.get(tgt.id);
        await store.get(st.id);
        expect(await store.get(tgt.id)).to.deep.equal(tgt);
        expect(await store.get(st.id)).to.deep.equal(st);
      });
    });

    describeExpiry(current);
    describeConsumeAndTouch(current);
    describeRemoval(current);
    describeAcrossNodes(current);
    describeProxyTickets(current);
  });
}
