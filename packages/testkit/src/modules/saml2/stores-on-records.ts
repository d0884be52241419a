import { RecordSamlRequestIdStore, RecordSamlSessionStore } from '@tessera/core/modules/saml2';
import { FixedClock } from '../../fixed-clock.js';
import type { ModuleRecordsFactory } from '../module-records.js';
import { describeSamlRequestIdStore } from './request-id-store-contract.js';
import { describeSamlSessionStore } from './session-store-contract.js';

/** The saml2 module's stores (accepted request ids, SP sessions) on one storage adapter's records, seen from another node too. */
export function describeSaml2StoresOnRecords(name: string, records: ModuleRecordsFactory, anotherNode?: ModuleRecordsFactory): void {
  const on = async <Store>(open: ModuleRecordsFactory, make: (records: Awaited<ReturnType<ModuleRecordsFactory>>) => Store) => make(await open(new FixedClock()));
  describeSamlRequestIdStore(
    `RecordSamlRequestIdStore on ${name}`,
    () => on(records, (opened) => new RecordSamlRequestIdStore(opened)),
    anotherNode && (() => on(anotherNode, (opened) => new RecordSamlRequestIdStore(opened))),
  );
  describeSamlSessionStore(
    `RecordSamlSessionStore on ${name}`,
    () => on(records, (opened) => new RecordSamlSessionStore(opened)),
    anotherNode && (() => on(anotherNode, (opened) => new RecordSamlSessionStore(opened))),
  );
}
