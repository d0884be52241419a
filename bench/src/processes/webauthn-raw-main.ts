import { systemClock, type EventSink } from '@tessera/core';
import { challengeOf, WebAuthnCeremonies, WebAuthnDevices, type PreparedCeremony } from '@tessera/core/modules/webauthn';
import { MapRecordStores, SeededRandomSource } from '@tessera/testkit';
import { SoftwareAuthenticator } from '@tessera/testkit/modules/webauthn';

/**
 * `node webauthn-raw-main.js SECONDS IN_FLIGHT`: core's WebAuthn assertion verification (the webauthn
 * module's ceremonies: the answer parsed, its ES256 signature, challenge, origin and RP id checked, the
 * device's counter recorded by compare-and-set in a store of records in memory), IN_FLIGHT at a time for
 * SECONDS, in a process of its own. One key, registered through the same ceremonies first, answers one
 * challenge, verified again and again (a passkey that keeps no counter, so every answer counts). Prints
 * `{ verifies, seconds, cpuMicros }`.
 */
const [seconds, inFlight] = process.argv.slice(2).map(Number);
const origin = 'https://sso.example.org';
const random = new SeededRandomSource('bench webauthn');
const events: EventSink = { emit: () => undefined };
const ceremonies = new WebAuthnCeremonies(
  { relyingParty: { id: 'sso.example.org', origin, name: 'bench' }, challengeSeconds: 300, userVerification: 'required' },
  new WebAuthnDevices(new MapRecordStores(systemClock), random, systemClock),
  random,
  systemClock,
  events,
);
const key = new SoftwareAuthenticator(false);
const registration: PreparedCeremony = { options: await ceremonies.registrationOptions('casuser', 'AAAAAAAAAAAAAAAAAAAAAA', []), expiresAt: Number.MAX_SAFE_INTEGER };
const device = await ceremonies.verifyRegistration(key.register(registration.options as never, { origin }), challengeOf(registration));
await ceremonies.devices.add({ ...device, username: 'casuser', userHandle: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'bench key', createdAt: systemClock.now() });
const login: PreparedCeremony = { options: await ceremonies.authenticationOptions([], 'required'), expiresAt: Number.MAX_SAFE_INTEGER };
const answer = JSON.parse(JSON.stringify(key.assert(login.options as never, { origin }))) as unknown;
const expected = { challenge: challengeOf(login), requireUserVerification: true };

const deadline = performance.now() + (seconds ?? 0) * 1000;
let verifies = 0;
const worker = async (): Promise<void> => {
  while (performance.now() < deadline) {
    await ceremonies.verifyAssertion(answer, expected);
    verifies += 1;
  }
};
const cpuBefore = process.cpuUsage();
const started = performance.now();
await Promise.all(Array.from({ length: inFlight ?? 1 }, worker));
const elapsed = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(`${JSON.stringify({ verifies, seconds: elapsed, cpuMicros: cpu.user + cpu.system })}\n`);
