import type { ServiceTicket, TicketGrantingTicket, TicketStore } from '@tessera/core';
import { aServiceTicket, aTicketGrantingTicket } from './builders.js';
import type { FixedClock } from './fixed-clock.js';

/** What each case of the TicketStore contract works on: a fresh store and the clock it reads. */
export interface TicketStoreFixture {
  readonly clock: FixedClock;
  readonly store: TicketStore;
  /** Another node's store over the same data (the same store where one process is the cluster). */
  readonly other: TicketStore;
}

/** The fixture of the running case; mocha creates it in beforeEach. */
export type CurrentFixture = () => TicketStoreFixture;

/** Stores a TGT and one ST it granted. */
export async function saveTgtWithSt({ clock, store }: TicketStoreFixture): Promise<{ tgt: TicketGrantingTicket; st: ServiceTicket }> {
  const tgt = aTicketGrantingTicket(clock);
  const st = aServiceTicket(clock, { tgtId: tgt.id });
  await store.save(tgt);
  await store.save(st);
  return { tgt, st };
}
