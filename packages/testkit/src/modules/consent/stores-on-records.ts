import { cryptoRandomSource } from '@tessera/core';
import { ConsentDecisions } from '@tessera/core/modules/consent';
import { FixedClock } from '../../fixed-clock.js';
import type { ModuleRecordsFactory } from '../module-records.js';
import { describeConsentDecisions } from './consent-decisions-contract.js';

/** The consent module's decisions on one storage adapter's records, seen from another node too. */
export function describeConsentStoresOnRecords(name: string, records: ModuleRecordsFactory, anotherNode?: ModuleRecordsFactory): void {
  describeConsentDecisions(
    `ConsentDecisions on ${name}`,
    async () => {
      const clock = new FixedClock();
      return { decisions: new ConsentDecisions(await records(clock), cryptoRandomSource), clock };
    },
    anotherNode && (async (clock) => new ConsentDecisions(await anotherNode(clock), cryptoRandomSource)),
  );
}
