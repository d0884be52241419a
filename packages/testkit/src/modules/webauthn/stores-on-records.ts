import { PasskeyChallenges, WebAuthnDevices } from '@tessera/core/modules/webauthn';
import { FixedClock } from '../../fixed-clock.js';
import { SeededRandomSource } from '../../seeded-random-source.js';
import type { ModuleRecordsFactory } from '../module-records.js';
import { describeWebAuthnDevices, type WebAuthnStores } from './devices-contract.js';

/** The webauthn module's stores on one storage adapter's records, seen from another node too. */
export function describeWebAuthnStoresOnRecords(name: string, records: ModuleRecordsFactory, anotherNode?: ModuleRecordsFactory): void {
  let clock = new FixedClock();
  const storesOn = async (open: ModuleRecordsFactory, fresh: boolean): Promise<WebAuthnStores> => {
    if (fresh) clock = new FixedClock();
    const opened = await open(clock);
    const random = new SeededRandomSource(`webauthn ${Math.random()}`);
    return { devices: new WebAuthnDevices(opened, random, clock), challenges: new PasskeyChallenges(opened, random, clock, 300), advance: (ms) => clock.advance(ms) };
  };
  describeWebAuthnDevices(`WebAuthnDevices and PasskeyChallenges on ${name}`, () => storesOn(records, true), anotherNode && (() => storesOn(anotherNode, false)));
}

