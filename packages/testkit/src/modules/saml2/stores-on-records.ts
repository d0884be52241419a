import { RecordPendingSamlLogins, RecordSamlRequestIdStore, RecordSamlSessionStore } from '@tessera/core/modules/saml2';
import { SeededRandomSource } from '../../seeded-random-source.js';
import { FixedClock } from '../../fixed-clock.js';
import type { ModuleRecordsFactory } from '../module-records.js';
import { describePendingSamlLogins } from './pending-logins-contract.js';
import { describeSamlRequestIdStore } from './request-id-store-contract.js';
import { describeSamlSessionStore } from './session-store-contract.js';

/** The saml2 module's stores (accepted request ids, SP sessions, pending logins) on one storage adapter's records, seen from another node too. */
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
  let seed = 0;
  // Each node its own random source, as every node has: their ids must not collide.
  describePendingSamlLogins(
    `RecordPendingSamlLogins on ${name}`,
    () => on(records, (opened) => new RecordPendingSamlLogins(opened, new SeededRandomSource(`saml2-pending-${++seed}`), 3)),
    anotherNode && (() => on(anotherNode, (opened) => new RecordPendingSamlLogins(opened, new SeededRandomSource(`saml2-pending-other-${++seed}`), 3))),
  );
}
