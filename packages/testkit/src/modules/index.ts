import { describeConsentStoresOnRecords } from './consent/index.js';
import { describeDelegationStoresOnRecords } from './delegation/index.js';
import { describeLoginStoresOnRecords } from './login/index.js';
import type { ModuleRecordsFactory } from './module-records.js';
import { describeOtpStoresOnRecords } from './otp/index.js';
import { describeWebAuthnStoresOnRecords } from './webauthn/index.js';
import { describeSaml2StoresOnRecords } from './saml2/index.js';

export type { ModuleRecordsFactory } from './module-records.js';

/**
 * Testkit's list of the modules' suites that every storage adapter runs: a module whose stores are
 * built on RecordStores adds its suite here, and every adapter's records are held to it.
 * `anotherNode` opens the records the factory opened last, as another node does. Every store's clock
 * stands at the contracts' fixed time, before the expiry of what they write, so the records they
 * claim are live.
 */
export function describeModuleStoresOnRecords(name: string, records: ModuleRecordsFactory, anotherNode?: ModuleRecordsFactory): void {
  describeLoginStoresOnRecords(name, records);
  describeOtpStoresOnRecords(name, records, anotherNode);
  describeConsentStoresOnRecords(name, records, anotherNode);
  describeWebAuthnStoresOnRecords(name, records, anotherNode);
  describeSaml2StoresOnRecords(name, records, anotherNode);
  describeDelegationStoresOnRecords(name, records, anotherNode);
}
