import { expect } from 'chai';
import { agreedTo, type ConsentDecisions } from '@tessera/core/modules/consent';
import type { FixedClock } from '../../fixed-clock.js';

/** A node's decisions and the clock its records run on. */
export interface DecisionsOnNode {
  readonly decisions: ConsentDecisions;
  readonly clock: FixedClock;
}

const SERVICE = 'https://app.example.org/home';
const ATTRIBUTES = { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] };
const MINUTE = 60_000;

/**
 * The consent module's decisions (core's modules/consent/consent-decisions.ts) on a storage: one per
 * user and service URL, found from any node, the values kept only as a digest, gone at the reminder.
 */
export function describeConsentDecisions(name: string, open: () => Promise<DecisionsOnNode>, anotherNode?: (clock: FixedClock) => Promise<ConsentDecisions>): void {
  describe(`ConsentDecisions contract: ${name}`, () => {
    it('keeps a decision per user and service URL, found in one read, from another node too; a later one replaces it', async () => {
      const { decisions, clock } = await open();
      const other = (await anotherNode?.(clock)) ?? decisions;
      const decided = await decisions.decide({ principal: 'casuser', service: SERVICE, createdAt: clock.now(), option: 'ATTRIBUTE_NAME', reminder: 30, reminderTimeUnit: 'DAYS' }, ATTRIBUTES);
      expect(await other.find('casuser', SERVICE)).to.deep.equal(decided);
      expect(decided).to.deep.equal({ principal: 'casuser', service: SERVICE, createdAt: clock.now(), option: 'ATTRIBUTE_NAME', reminder: 30, reminderTimeUnit: 'DAYS', attributeNames: ['mail', 'memberOf'] });
      expect(await other.find('alice', SERVICE)).to.equal(undefined);
      expect(await other.find('casuser', `${SERVICE}/other`)).to.equal(undefined);
      await other.decide({ principal: 'casuser', service: SERVICE, createdAt: clock.now(), option: 'ALWAYS', reminder: 30, reminderTimeUnit: 'DAYS' }, ATTRIBUTES);
      expect((await decisions.find('casuser', SERVICE))?.option).to.equal('ALWAYS');
    });

    it('ATTRIBUTE_VALUE keeps a salted digest of the values, never the values, that tells a changed value', async () => {
      const { decisions, clock } = await open();
      const decided = await decisions.decide({ principal: 'bob', service: SERVICE, createdAt: clock.now(), option: 'ATTRIBUTE_VALUE', reminder: 30, reminderTimeUnit: 'DAYS' }, ATTRIBUTES);
      const found = (await decisions.find('bob', SERVICE))!;
      expect(found).to.deep.equal(decided);
      expect(JSON.stringify(found)).to.not.include('casuser@example.org');
      expect(JSON.stringify(found)).to.not.include('faculty');
      expect(agreedTo(found, ATTRIBUTES)).to.equal(true);
      expect(agreedTo(found, { ...ATTRIBUTES, memberOf: ['staff'] })).to.equal(false);
      expect(agreedTo({ ...found, option: 'ATTRIBUTE_NAME' }, { ...ATTRIBUTES, memberOf: ['staff'] }), 'by name only, the same names agree').to.equal(true);
      expect(agreedTo({ ...found, option: 'ATTRIBUTE_NAME' }, { mail: ['casuser@example.org'] }), 'a name gone').to.equal(false);
    });

    it('a decision is gone once its reminder is past (the clock moved)', async () => {
      const { decisions, clock } = await open();
      await decisions.decide({ principal: 'carol', service: SERVICE, createdAt: clock.now(), option: 'ATTRIBUTE_NAME', reminder: 10, reminderTimeUnit: 'MINUTES' }, ATTRIBUTES);
      clock.advance(9 * MINUTE);
      expect(await decisions.find('carol', SERVICE)).to.not.equal(undefined);
      clock.advance(MINUTE);
      expect(await decisions.find('carol', SERVICE)).to.equal(undefined);
    });
  });
}
