import type { Clock, RecordStores } from '@tessera/core';
import { RecordFormTokenStore, RecordServiceSessionStore } from '@tessera/core/modules/login';
import { RecordOtpReplayStore } from '@tessera/core/modules/otp';
import { FixedClock } from './fixed-clock.js';
import { describeFormTokenStore } from './form-token-store-contract.js';
import { describeOtpReplayStore } from './otp-replay-store-contract.js';
import { describeServiceSessionStore } from './service-session-store-contract.js';

/** The storage's records as a node opens them, on the clock given. */
export type ModuleRecordsFactory = (clock: Clock) => RecordStores | Promise<RecordStores>;

/**
 * The contracts of the stores the login and otp modules build on RecordStores (used form tokens,
 * single-logout records, used one-time passwords), on one storage adapter's records. `anotherNode`
 * opens the records the factory opened last, as another node does. Every store's clock stands at the
 * contracts' fixed time, before the expiry of what they write, so the records they claim are live.
 */
export function describeModuleStoresOnRecords(name: string, records: ModuleRecordsFactory, anotherNode?: ModuleRecordsFactory): void {
  const clock = () => new FixedClock();
  describeFormTokenStore(`RecordFormTokenStore on ${name}`, async () => new RecordFormTokenStore(await records(clock())));
  describeServiceSessionStore(`RecordServiceSessionStore on ${name}`, async () => new RecordServiceSessionStore(await records(clock())));
  const otpOn = async (open: ModuleRecordsFactory) => {
    const now = clock();
    return new RecordOtpReplayStore(await open(now), now);
  };
  describeOtpReplayStore(`RecordOtpReplayStore on ${name}`, () => otpOn(records), anotherNode && (() => otpOn(anotherNode)));
}
