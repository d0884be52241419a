import { RecordFormTokenStore, RecordServiceSessionStore } from '@tessera/core/modules/login';
import { FixedClock } from '../../fixed-clock.js';
import type { ModuleRecordsFactory } from '../module-records.js';
import { describeFormTokenStore } from './form-token-store-contract.js';
import { describeServiceSessionStore } from './service-session-store-contract.js';

/** The login module's stores on one storage adapter's records: used form tokens, single-logout records. */
export function describeLoginStoresOnRecords(name: string, records: ModuleRecordsFactory): void {
  describeFormTokenStore(`RecordFormTokenStore on ${name}`, async () => new RecordFormTokenStore(await records(new FixedClock())));
  describeServiceSessionStore(`RecordServiceSessionStore on ${name}`, async () => new RecordServiceSessionStore(await records(new FixedClock())));
}
