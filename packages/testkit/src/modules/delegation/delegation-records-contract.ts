import { expect } from 'chai';
import type { DelegationRecords, WaitingLogin } from '@tessera/core/modules/delegation';
import type { FixedClock } from '../../fixed-clock.js';

/** A node's delegation records and the clock its records run on. */
export interface DelegationRecordsOnNode {
  readonly records: DelegationRecords;
  readonly clock: FixedClock;
}

const MINUTE = 60_000;
/** The client address the logins leave from, and the most it may have waiting (as the records are opened). */
const ADDRESS = '192.0.2.7';
export const WAITING_PER_ADDRESS = 3;
/** Concurrent callers in the single-use case. */
const CALLERS = 10;

const waiting = (provider: string): WaitingLogin => ({
  provider,
  browser: 'digest-of-the-browser-cookie',
  nonce: 'a-nonce',
  codeVerifier: 'a-code-verifier',
  form: { formToken: 'a-form-token', service: 'https://app.example.org/home', renew: true },
});

/**
 * The delegation module's records (core's modules/delegation/login-states.ts) on a storage: a login
 * waiting upstream under its state and a proof of a login back, each taken once, from any node (leave
 * at one, come back at another), gone when it expires; for the upstream's logout, what a login keeps
 * (taken once), what a session keeps (until it ends or expires), and a logout gone upstream (taken once).
 */
export function describeDelegationRecords(name: string, open: () => Promise<DelegationRecordsOnNode>, anotherNode?: (clock: FixedClock) => Promise<DelegationRecords>): void {
  describe(`DelegationRecords contract: ${name}`, () => {
    it('takes a waiting login once, from another node too, as it was left; an unknown or empty state is none', async () => {
      const { records, clock } = await open();
      const other = (await anotherNode?.(clock)) ?? records;
      const state = records.randomValue();
      await records.wait(state, waiting('partner'), clock.now() + 10 * MINUTE, ADDRESS);
      expect(await other.takeWaiting(state)).to.deep.equal(waiting('partner'));
      expect(await other.takeWaiting(state)).to.equal(undefined);
      expect(await records.takeWaiting(state)).to.equal(undefined);
      expect(await records.takeWaiting(records.randomValue())).to.equal(undefined);
      expect(await records.takeWaiting('')).to.equal(undefined);
    });

    it(`gives a waiting login to exactly one of ${CALLERS} concurrent takes`, async () => {
      const { records, clock } = await open();
      const other = (await anotherNode?.(clock)) ?? records;
      const state = records.randomValue();
      await records.wait(state, waiting('company'), clock.now() + 10 * MINUTE, ADDRESS);
      const taken = await Promise.all(Array.from({ length: CALLERS }, (_, index) => (index % 2 === 0 ? records : other).takeWaiting(state)));
      expect(taken.filter((login) => login !== undefined)).to.deep.equal([waiting('company')]);
    });

    it('a waiting login is gone once it expires (the clock moved)', async () => {
      const { records, clock } = await open();
      const state = records.randomValue();
      await records.wait(state, waiting('partner'), clock.now() + 10 * MINUTE, ADDRESS);
      clock.advance(10 * MINUTE);
      expect(await records.takeWaiting(state)).to.equal(undefined);
    });

    it(`keeps at most ${WAITING_PER_ADDRESS} logins waiting per client address (an IPv6 /64 as one), dropping its earliest; other addresses keep theirs`, async () => {
      const { records, clock } = await open();
      const other = (await anotherNode?.(clock)) ?? records;
      const elsewhere = records.randomValue();
      await records.wait(elsewhere, waiting('partner'), clock.now() + 10 * MINUTE, '198.51.100.1');
      const states: string[] = [];
      for (let index = 0; index <= WAITING_PER_ADDRESS; index++) {
        const state = records.randomValue();
        states.push(state);
        // From one /64, each a second later than the one before.
        await (index % 2 === 0 ? records : other).wait(state, waiting('partner'), clock.now() + 10 * MINUTE + index * 1000, `2001:db8:0:7::${index + 1}`);
      }
      expect(await records.takeWaiting(states[0]!)).to.equal(undefined);
      for (const state of states.slice(1)) expect(await other.takeWaiting(state)).to.deep.equal(waiting('partner'));
      expect(await records.takeWaiting(elsewhere)).to.deep.equal(waiting('partner'));
    });

    it('keeps a proof under a fresh random id, taken once from another node; gone once it expires', async () => {
      const { records, clock } = await open();
      const other = (await anotherNode?.(clock)) ?? records;
      const proof = { provider: 'partner', browser: 'a-browser-digest', principal: { id: 'bob', attributes: { mail: ['bob@partner.example'], delegatedProvider: ['partner'] } } };
      const id = await records.prove(proof, clock.now() + 2 * MINUTE);
      const second = await records.prove(proof, clock.now() + 2 * MINUTE);
      expect(id).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(second).to.not.equal(id);
      expect(await other.takeProof(id)).to.deep.equal(proof);
      expect(await records.takeProof(id)).to.equal(undefined);
      expect(await records.takeProof('')).to.equal(undefined);
      clock.advance(2 * MINUTE);
      expect(await other.takeProof(second)).to.equal(undefined);
    });

    it('keeps what a login has for the upstream logout under its key until its session is made: taken once, from another node too; gone once it expires', async () => {
      const { records, clock } = await open();
      const other = (await anotherNode?.(clock)) ?? records;
      const kept = { provider: 'partner', session: { idToken: 'header.payload.signature' } };
      await records.keepLogin('a-login-key', kept, clock.now() + 10 * MINUTE);
      await records.keepLogin('another-login-key', kept, clock.now() + 10 * MINUTE);
      expect(await other.takeLogin('a-login-key')).to.deep.equal(kept);
      expect(await records.takeLogin('a-login-key')).to.equal(undefined);
      expect(await records.takeLogin('')).to.equal(undefined);
      clock.advance(10 * MINUTE);
      expect(await other.takeLogin('another-login-key')).to.equal(undefined);
    });

    it('keeps it with a login session as long as the session may live, for every node, until the session ends', async () => {
      const { records, clock } = await open();
      const other = (await anotherNode?.(clock)) ?? records;
      const kept = { provider: 'company', session: { idToken: 'header.payload.signature' } };
      await records.keepSession('TGT-1-session-one', kept, clock.now() + 60 * MINUTE);
      await records.keepSession('TGT-2-session-two', { provider: 'partner', session: {} }, clock.now() + 60 * MINUTE);
      // Read as often as asked (a logout reads it, then the session's end drops it).
      expect(await other.session('TGT-1-session-one')).to.deep.equal(kept);
      expect(await records.session('TGT-1-session-one')).to.deep.equal(kept);
      expect(await records.session('TGT-3-never-kept')).to.equal(undefined);
      await other.forgetSession('TGT-1-session-one');
      expect(await records.session('TGT-1-session-one')).to.equal(undefined);
      await records.forgetSession('TGT-3-never-kept');
      clock.advance(60 * MINUTE);
      expect(await other.session('TGT-2-session-two')).to.equal(undefined);
    });

    it('takes a logout gone upstream once, by its state, from another node too; gone once it expires', async () => {
      const { records, clock } = await open();
      const other = (await anotherNode?.(clock)) ?? records;
      const state = records.randomValue();
      const later = records.randomValue();
      await records.leaveForLogout(state, { provider: 'partner', service: 'https://app.example.org/bye' }, clock.now() + 10 * MINUTE);
      await records.leaveForLogout(later, { provider: 'company' }, clock.now() + 10 * MINUTE);
      const taken = await Promise.all(Array.from({ length: CALLERS }, (_, index) => (index % 2 === 0 ? records : other).takeLogout(state)));
      expect(taken.filter((left) => left !== undefined)).to.deep.equal([{ provider: 'partner', service: 'https://app.example.org/bye' }]);
      expect(await records.takeLogout('')).to.equal(undefined);
      clock.advance(10 * MINUTE);
      expect(await other.takeLogout(later)).to.equal(undefined);
    });
  });
}
