import { expect } from 'chai';
import { AuthenticationFailedError, type JsonValue } from '@tessera/core';
import { challengeOf, PasskeyButtonPrompt, PasskeyChallenges, WebAuthnCeremonies, WebAuthnDevices, WEBAUTHN_CHALLENGES_NAMESPACE, WEBAUTHN_REFUSED, type PreparedCeremony, type WebAuthnClonedEvent } from '@tessera/core/modules/webauthn';
import { MapRecordStores, SeededRandomSource, rejectionOf } from '@tessera/testkit';
import { SoftwareAuthenticator } from '@tessera/testkit/modules/webauthn';
import { FixedClock, RecordingEvents } from './fakes.js';

const ORIGIN = 'https://sso.example.org';
const answer = { origin: ORIGIN };

function setUp(userVerification: 'required' | 'preferred' = 'preferred') {
  const clock = new FixedClock();
  const events = new RecordingEvents();
  const random = new SeededRandomSource(`webauthn unit ${Math.random()}`);
  const ceremonies = new WebAuthnCeremonies(
    { relyingParty: { id: 'sso.example.org', origin: ORIGIN, name: 'Example' }, challengeSeconds: 300, userVerification },
    new WebAuthnDevices(new MapRecordStores(clock), random, clock),
    random,
    clock,
    events,
  );
  return { ceremonies, events, clock };
}

const prepared = (options: JsonValue): PreparedCeremony => ({ options, expiresAt: 0 });

/** A key of `username`, registered through the ceremonies. */
async function registered(ceremonies: WebAuthnCeremonies, username: string, key = new SoftwareAuthenticator()) {
  const handle = await ceremonies.devices.userHandle(username);
  const options = await ceremonies.registrationOptions(username, handle, await ceremonies.devices.list(username));
  const device = await ceremonies.verifyRegistration(key.register(options as never, answer), challengeOf(prepared(options)));
  await ceremonies.devices.add({ ...device, username, userHandle: handle, name: 'key', createdAt: 0 });
  return key;
}

async function refusal(promise: Promise<unknown>): Promise<readonly string[]> {
  const error = await rejectionOf(promise);
  expect(error).to.be.instanceOf(AuthenticationFailedError);
  return (error as AuthenticationFailedError).reasons;
}

// docs/modules/webauthn.md: the ceremonies on @simplewebauthn/server, each answer checked.
describe('WebAuthnCeremonies', () => {
  it('asks registration for the public URL’s host, attestation none, a resident key and user verification preferred, the user’s keys excluded, a challenge of the random source', async () => {
    const { ceremonies } = setUp();
    const key = await registered(ceremonies, 'casuser');
    const handle = await ceremonies.devices.userHandle('casuser');
    const options = (await ceremonies.registrationOptions('casuser', handle, await ceremonies.devices.list('casuser'))) as Record<string, unknown>;
    expect(options['rp']).to.deep.equal({ name: 'Example', id: 'sso.example.org' });
    expect(options['attestation']).to.equal('none');
    expect(options['authenticatorSelection']).to.deep.include({ residentKey: 'preferred', userVerification: 'preferred' });
    expect((options['excludeCredentials'] as { id: string }[]).map((credential) => credential.id)).to.deep.equal(key.credentialIds);
    expect((options['user'])).to.deep.include({ id: handle, name: 'casuser' });
    expect(options['challenge']).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(options['timeout']).to.equal(300_000);
  });

  it('verifies an assertion of the user’s key, counting it; refuses another user’s, a wrong challenge, origin or RP id, one message for all', async () => {
    const { ceremonies } = setUp();
    const key = await registered(ceremonies, 'casuser');
    const options = await ceremonies.authenticationOptions(await ceremonies.devices.list('casuser'), 'preferred');
    const challenge = challengeOf(prepared(options));
    const verified = await ceremonies.verifyAssertion(key.assert(options as never, answer), { challenge, username: 'casuser', requireUserVerification: false });
    expect(verified.device.username).to.equal('casuser');
    expect((await ceremonies.devices.find(verified.device.credentialId))?.counter).to.equal(1);
    for (const [what, response, expected] of [
      ['another user', key.assert(options as never, answer), { challenge, username: 'alice', requireUserVerification: false }],
      ['another challenge', key.assert(options as never, answer), { challenge: 'b3RoZXI', username: 'casuser', requireUserVerification: false }],
      ['another origin', key.assert(options as never, { origin: 'https://sso.example.org:8443' }), { challenge, username: 'casuser', requireUserVerification: false }],
      ['another RP id', key.assert(options as never, { ...answer, rpId: 'example.org' }), { challenge, username: 'casuser', requireUserVerification: false }],
      ['no user verification where required', key.assert(options as never, { ...answer, userVerified: false }), { challenge, username: 'casuser', requireUserVerification: true }],
      ['no object', 'text', { challenge, requireUserVerification: false }],
    ] as const) {
      expect(await refusal(ceremonies.verifyAssertion(response, expected)), what).to.deep.equal([WEBAUTHN_REFUSED]);
    }
  });

  it('refuses an answer whose counter went back, and reports the clone with both counters', async () => {
    const { ceremonies, events } = setUp();
    const key = await registered(ceremonies, 'casuser');
    const options = await ceremonies.authenticationOptions([], 'required');
    const challenge = challengeOf(prepared(options));
    await ceremonies.verifyAssertion(key.assert(options as never, { ...answer, counter: 7 }), { challenge, requireUserVerification: true });
    await refusal(ceremonies.verifyAssertion(key.assert(options as never, { ...answer, counter: 7 }), { challenge, requireUserVerification: true }));
    await refusal(ceremonies.verifyAssertion(key.assert(options as never, { ...answer, counter: 3 }), { challenge, requireUserVerification: true }));
    const cloned = events.ofType<WebAuthnClonedEvent>('webauthn.cloned');
    expect(cloned.map((event) => [event.username, event.counter, event.recorded])).to.deep.equal([
      ['casuser', 7, 7],
      ['casuser', 3, 7],
    ]);
  });

  it('refuses a registration answering another challenge or from another origin', async () => {
    const { ceremonies } = setUp();
    const options = await ceremonies.registrationOptions('casuser', await ceremonies.devices.userHandle('casuser'), []);
    const key = new SoftwareAuthenticator();
    expect(await refusal(ceremonies.verifyRegistration(key.register(options as never, answer), 'b3RoZXI'))).to.deep.equal([WEBAUTHN_REFUSED]);
    expect(await refusal(ceremonies.verifyRegistration(key.register(options as never, { origin: 'https://evil.example.org' }), challengeOf(prepared(options))))).to.deep.equal([WEBAUTHN_REFUSED]);
    expect(await refusal(ceremonies.verifyRegistration({ id: 'x', response: {} }, challengeOf(prepared(options))))).to.deep.equal([WEBAUTHN_REFUSED]);
  });

  it('says a challenge is live until challengeSeconds have passed on the clock', () => {
    const { ceremonies, clock } = setUp();
    const expiresAt = ceremonies.expiry();
    expect(ceremonies.live({ expiresAt })).to.equal(true);
    clock.advanceSeconds(300);
    expect(ceremonies.live({ expiresAt })).to.equal(false);
    expect(ceremonies.live(undefined)).to.equal(false);
  });
});

// docs/modules/webauthn.md, the passkey login: the login page is shown to anyone, as often as they like, so
// showing it stores nothing; only an answer takes a place in the store, until its challenge expires.
describe('PasskeyChallenges (the login page’s passkey button)', () => {
  function button() {
    const clock = new FixedClock();
    const records = new MapRecordStores(clock);
    const random = new SeededRandomSource(`passkey challenges ${Math.random()}`);
    const settings = { relyingParty: { id: 'sso.example.org', origin: ORIGIN, name: 'Example' }, challengeSeconds: 300, userVerification: 'preferred' as const };
    const ceremonies = new WebAuthnCeremonies(settings, new WebAuthnDevices(records, random, clock), random, clock, new RecordingEvents());
    const challenges = new PasskeyChallenges(records, random, clock, settings.challengeSeconds);
    const stored = () => records.namespaces.get(WEBAUTHN_CHALLENGES_NAMESPACE)?.size ?? 0;
    return { prompt: new PasskeyButtonPrompt(ceremonies, challenges), challenges, clock, stored };
  }

  it('stores nothing per page shown: a thousand pages leave one record at most (the key its challenges derive from)', async () => {
    const { prompt, stored } = button();
    const shown = new Set<string>();
    for (let page = 0; page < 1000; page += 1) shown.add(challengeOf({ options: (await prompt.prepare({})).options, expiresAt: 0 }));
    expect(shown.size, 'each page its own challenge').to.equal(1000);
    expect(stored()).to.be.at.most(1);
  });

  it('gives the page’s challenge once, within challengeSeconds; a forged, altered or expired id gives none', async () => {
    const { prompt, challenges, clock } = button();
    const page = (await prompt.prepare({}));
    const challenge = challengeOf({ options: page.options, expiresAt: 0 });
    expect(await challenges.take(page.challengeId)).to.equal(challenge);
    expect(await challenges.take(page.challengeId), 'taken already').to.equal(undefined);
    const other = (await prompt.prepare({}));
    const [nonce, expiry] = other.challengeId.split('.');
    expect(await challenges.take(`${nonce}.${Number(expiry) + 60_000}`), 'its expiry moved').to.equal(undefined);
    expect(await challenges.take(`${nonce}.${Number(expiry) + 1_000_000_000}`), 'far beyond challengeSeconds').to.equal(undefined);
    expect(await challenges.take('forged'), 'forged').to.equal(undefined);
    expect(await challenges.take(''), 'none').to.equal(undefined);
    clock.advanceSeconds(300);
    expect(await challenges.take(other.challengeId), 'expired').to.equal(undefined);
  });
});
