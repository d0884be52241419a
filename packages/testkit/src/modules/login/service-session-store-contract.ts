import { expect } from 'chai';
import type { ServiceSession, ServiceSessionStore } from '@tessera/core/modules/login';

export type ServiceSessionStoreFactory = () => ServiceSessionStore | Promise<ServiceSessionStore>;

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const HOUR = 3_600_000;
/** A limit no test but the limit's own reaches. */
const ROOMY = 100;

function session(n: number, principal = 'casuser'): ServiceSession {
  return { ticketId: `ST-${n}-aaaaaaaaaaaaaaaaaaaaaa-test`, service: `https://app${n}.example.org/`, principal };
}

/** The ServiceSessionStore contract (core's modules/login/service-session-store.ts): times are passed in, so no clock moves. */
export function describeServiceSessionStore(name: string, factory: ServiceSessionStoreFactory): void {
  describe(`ServiceSessionStore contract: ${name}`, () => {
    it('takes nothing for a TGT without sessions', async () => {
      expect(await (await factory()).take('TGT-1-none')).to.deep.equal([]);
    });

    it('takes every session of a TGT once, in the order added, and keeps TGTs apart', async () => {
      const store = await factory();
      await store.add('TGT-1-a', session(1), T0 + HOUR, ROOMY);
      await store.add('TGT-2-b', session(2, 'alice'), T0 + HOUR, ROOMY);
      await store.add('TGT-1-a', session(3), T0 + HOUR, ROOMY);
      expect(await store.take('TGT-1-a')).to.deep.equal([session(1), session(3)]);
      expect(await store.take('TGT-1-a')).to.deep.equal([]);
      expect(await store.take('TGT-2-b')).to.deep.equal([session(2, 'alice')]);
    });

    it('lists the records due, earliest first, at most `limit`; a taken record is no longer due', async () => {
      const store = await factory();
      await store.add('TGT-late', session(1), T0 + 3 * HOUR, ROOMY);
      await store.add('TGT-first', session(2), T0 + HOUR, ROOMY);
      await store.add('TGT-second', session(3), T0 + 2 * HOUR, ROOMY);
      expect(await store.due(T0, 10)).to.deep.equal([]);
      expect(await store.due(T0 + HOUR, 10)).to.deep.equal(['TGT-first']);
      expect(await store.due(T0 + 3 * HOUR, 2)).to.deep.equal(['TGT-first', 'TGT-second']);
      await store.take('TGT-first');
      expect(await store.due(T0 + 3 * HOUR, 10)).to.deep.equal(['TGT-second', 'TGT-late']);
    });

    it('moves the check time only later: by a later add or a postpone', async () => {
      const store = await factory();
      await store.add('TGT-1-a', session(1), T0 + 2 * HOUR, ROOMY);
      await store.add('TGT-1-a', session(2), T0 + HOUR, ROOMY);
      expect(await store.due(T0 + HOUR, 10)).to.deep.equal([]);
      await store.postpone('TGT-1-a', T0 + HOUR);
      expect(await store.due(T0 + 2 * HOUR, 10)).to.deep.equal(['TGT-1-a']);
      await store.postpone('TGT-1-a', T0 + 4 * HOUR);
      expect(await store.due(T0 + 3 * HOUR, 10)).to.deep.equal([]);
      await store.add('TGT-1-a', session(3), T0 + 5 * HOUR, ROOMY);
      expect(await store.due(T0 + 4 * HOUR, 10)).to.deep.equal([]);
      expect(await store.due(T0 + 5 * HOUR, 10)).to.deep.equal(['TGT-1-a']);
      expect(await store.take('TGT-1-a')).to.have.length(3);
    });

    it('creates no record when postponing a TGT without one', async () => {
      const store = await factory();
      await store.postpone('TGT-9-none', T0);
      expect(await store.due(T0 + HOUR, 10)).to.deep.equal([]);
      expect(await store.take('TGT-9-none')).to.deep.equal([]);
    });

    it('keeps every one of many concurrent adds to one TGT', async () => {
      const store = await factory();
      await Promise.all(Array.from({ length: 10 }, (_, n) => store.add('TGT-1-a', session(n), T0 + HOUR + n, ROOMY)));
      const taken = await store.take('TGT-1-a');
      expect(taken.map((s) => s.ticketId).sort()).to.deep.equal(Array.from({ length: 10 }, (_, n) => session(n).ticketId).sort());
    });

    it('keeps the newest `limit` sessions of a TGT, returning each one it drops once, oldest first', async () => {
      const store = await factory();
      expect(await store.add('TGT-1-a', session(1), T0 + HOUR, 2)).to.deep.equal([]);
      expect(await store.add('TGT-1-a', session(2), T0 + HOUR, 2)).to.deep.equal([]);
      expect(await store.add('TGT-2-b', session(9), T0 + HOUR, 2), 'another TGT counts apart').to.deep.equal([]);
      expect(await store.add('TGT-1-a', session(3), T0 + HOUR, 2)).to.deep.equal([session(1)]);
      expect(await store.add('TGT-1-a', session(4), T0 + HOUR, 2)).to.deep.equal([session(2)]);
      expect(await store.take('TGT-1-a')).to.deep.equal([session(3), session(4)]);
      expect(await store.take('TGT-2-b')).to.deep.equal([session(9)]);
    });

    it('drops down to a limit lowered since the last add, oldest first', async () => {
      const store = await factory();
      for (let n = 1; n <= 4; n += 1) await store.add('TGT-1-a', session(n), T0 + HOUR, ROOMY);
      expect(await store.add('TGT-1-a', session(5), T0 + HOUR, 2)).to.deep.equal([session(1), session(2), session(3)]);
      expect(await store.take('TGT-1-a')).to.deep.equal([session(4), session(5)]);
    });

    it('keeps a record trimmed to its limit due at its check time', async () => {
      const store = await factory();
      await store.add('TGT-1-a', session(1), T0 + HOUR, 1);
      await store.add('TGT-1-a', session(2), T0 + 2 * HOUR, 1);
      expect(await store.due(T0 + HOUR, 10)).to.deep.equal([]);
      expect(await store.due(T0 + 2 * HOUR, 10)).to.deep.equal(['TGT-1-a']);
      expect(await store.take('TGT-1-a')).to.deep.equal([session(2)]);
    });

    it('of many concurrent adds past the limit, keeps exactly `limit` and returns every other session once', async () => {
      const store = await factory();
      const added = Array.from({ length: 10 }, (_, n) => session(n));
      const dropped = (await Promise.all(added.map((one, n) => store.add('TGT-1-a', one, T0 + HOUR + n, 3)))).flat();
      const kept = await store.take('TGT-1-a');
      expect(kept).to.have.length(3);
      const ids = (sessions: readonly ServiceSession[]) => sessions.map((s) => s.ticketId).sort();
      expect(ids([...kept, ...dropped])).to.deep.equal(ids(added));
    });

    it('gives the sessions to exactly one of many concurrent takes', async () => {
      const store = await factory();
      await store.add('TGT-1-a', session(1), T0 + HOUR, ROOMY);
      await store.add('TGT-1-a', session(2), T0 + HOUR, ROOMY);
      const results = await Promise.all(Array.from({ length: 10 }, () => store.take('TGT-1-a')));
      expect(results.filter((taken) => taken.length > 0)).to.deep.equal([[session(1), session(2)]]);
    });
  });
}
