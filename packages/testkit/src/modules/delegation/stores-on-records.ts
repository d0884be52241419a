import { cryptoRandomSource } from '@tessera/core';
import { DelegationRecords } from '@tessera/core/modules/delegation';
import { FixedClock } from '../../fixed-clock.js';
import type { ModuleRecordsFactory } from '../module-records.js';
import { describeDelegationRecords, WAITING_PER_ADDRESS } from './delegation-records-contract.js';

/** The delegation module's records (logins waiting upstream, proofs of those back) on one storage adapter's records, seen from another node too. */
export function describeDelegationStoresOnRecords(name: string, records: ModuleRecordsFactory, anotherNode?: ModuleRecordsFactory): void {
  describeDelegationRecords(
    `DelegationRecords on ${name}`,
    async () => {
      const clock = new FixedClock();
      return { records: new DelegationRecords(await records(clock), cryptoRandomSource, WAITING_PER_ADDRESS), clock };
    },
    anotherNode && (async (clock) => new DelegationRecords(await anotherNode(clock), cryptoRandomSource, WAITING_PER_ADDRESS)),
  );
}
