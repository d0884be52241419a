import { RecordOtpReplayStore } from '@tessera/core/modules/otp';
import { FixedClock } from '../../fixed-clock.js';
import type { ModuleRecordsFactory } from '../module-records.js';
import { describeOtpReplayStore } from './otp-replay-store-contract.js';

/** The otp module's store of used one-time passwords on one storage adapter's records, seen from another node too. */
export function describeOtpStoresOnRecords(name: string, records: ModuleRecordsFactory, anotherNode?: ModuleRecordsFactory): void {
  const otpOn = async (open: ModuleRecordsFactory) => {
    const now = new FixedClock();
    return new RecordOtpReplayStore(await open(now), now);
  };
  describeOtpReplayStore(`RecordOtpReplayStore on ${name}`, () => otpOn(records), anotherNode && (() => otpOn(anotherNode)));
}
