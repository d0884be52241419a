import { expect } from 'chai';
import { ThrottledError, type Authentication } from '@tessera/core';
import { AuthenticationThrottle, FailureLocks, throttleKey, type ThrottleSettings, type ThrottleSubject } from '@tessera/core/modules/throttle';
import { FixedClock, RecordingEvents } from '../../fakes.js';
import { MapThrottleStore } from '@tessera/testkit/modules/throttle';

const ORIGIN = { clientAddress: '203.0.113.9', requestId: 'r1' };
const SUBJECT = { origin: ORIGIN, username: 'CasUser' };
const KEY = throttleKey('203.0.113.9', 'CasUser');

function throttle(settings: ThrottleSettings = { threshold: 3, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 200 }) {
  const clock = new FixedClock();
  const store = new MapThrottleStore();
  const events = new RecordingEvents();
  return { clock, store, events, throttle: new AuthenticationThrottle(new FailureLocks(store, clock, settings), events, ['usernamePassword', 'otp']) };
}

/** A success with these credentials, as the Authenticator reports it to its listeners. */
function authenticatedBy(credentials: Authentication['credentials'], principal = 'casuser'): Authentication {
  return { principal: { id: principal, attributes: {} }, authenticatedAt: 0, credentials, successes: {}, attributes: {} };
}

/** A request of its own (a success told for another request's origin forgets nothing of it) admitted and answered without a 401: its attempt given back. */
async function probe(subject: AuthenticationThrottle, who: ThrottleSubject): Promise<void> {
  await (await subject.admit({ ...who, origin: { ...who.origin } })).answered();
}

/** A request the throttle admits and that is answered 401. */
async function failOnce(subject: AuthenticationThrottle, who: ThrottleSubject): Promise<void> {
  await (await subject.admit(who)).failed();
}

async function retryAfter(check: Promise<void>): Promise<number | 'open'> {
  try {
    await check;
    return 'open';
  } catch (error) {
    if (!(error instanceof ThrottledError)) throw error;
    return error.retryAfterSeconds;
  }
}

async function fail(subject: AuthenticationThrottle, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await failOnce(subject, SUBJECT);
}

describe('throttle policy (docs/protocol.md §5)', () => {
  it('keys by client IP and lower-cased username, or the IP alone', () => {
    expect(throttleKey('203.0.113.9', 'CasUser')).to.equal(throttleKey('203.0.113.9', 'casuser'));
    expect(throttleKey('203.0.113.9', 'casuser')).to.not.equal(throttleKey('198.51.100.1', 'casuser'));
    expect(throttleKey('203.0.113.9', undefined)).to.equal('203.0.113.9');
    expect(throttleKey('203.0.113.9', '  ')).to.equal('203.0.113.9');
  });

  it('keys an IPv6 client by its /64 network, and an IPv4-mapped one by its IPv4 address', () => {
    expect(throttleKey('2001:db8:0:7::1', 'CasUser')).to.equal('2001:db8:0:7::/64 casuser');
    expect(throttleKey('2001:DB8:0:7:ab:cd:ef:1%eth0', 'casuser')).to.equal(throttleKey('2001:db8:0:7::1', 'casuser'));
    expect(throttleKey('2001:db8:0:8::1', 'casuser')).to.not.equal(throttleKey('2001:db8:0:7::1', 'casuser'));
    expect(throttleKey('::ffff:203.0.113.9', 'casuser')).to.equal(throttleKey('203.0.113.9', 'casuser'));
  });

  it('failures from two addresses of one IPv6 /64 lock them both; an address of another /64 stays open', async () => {
    const { throttle: subject, events } = throttle();
    const from = (clientAddress: string) => ({ origin: { clientAddress, requestId: clientAddress }, username: 'casuser' });
    const first = from('2001:db8:0:7::1');
    const second = from('2001:db8:0:7:8c3e:11ff:fe42:9a01');
    await failOnce(subject, first);
    await failOnce(subject, second);
    expect(await retryAfter(probe(subject, first))).to.equal('open');
    await failOnce(subject, second);
    expect(await retryAfter(probe(subject, first))).to.equal(60);
    expect(await retryAfter(probe(subject, second))).to.equal(60);
    expect(await retryAfter(probe(subject, from('2001:db8:0:7::ffff')))).to.equal(60);
    expect(await retryAfter(probe(subject, from('2001:db8:0:8::1')))).to.equal('open');
    expect(events.ofType('authentication.throttled')).to.deep.equal([{ type: 'authentication.throttled', key: '2001:db8:0:7::/64 casuser', username: 'casuser', lockSeconds: 60, failures: 3 }]);
  });

  it("a success from one address of a /64 forgets the network's failures for the user it proved", async () => {
    const { throttle: subject } = throttle();
    const from = (clientAddress: string) => ({ origin: { clientAddress, requestId: clientAddress }, username: 'casuser' });
    await failOnce(subject, from('2001:db8:0:7::1'));
    await failOnce(subject, from('2001:db8:0:7::2'));
    await subject.authenticated(authenticatedBy([{ type: 'usernamePassword', id: 'casuser' }]), from('2001:db8:0:7::3').origin);
    await failOnce(subject, from('2001:db8:0:7::4'));
    await failOnce(subject, from('2001:db8:0:7::5'));
    expect(await retryAfter(probe(subject, from('2001:db8:0:7::1'))), 'two failures since the success').to.equal('open');
    await failOnce(subject, from('2001:db8:0:7::6'));
    expect(await retryAfter(probe(subject, from('2001:db8:0:7::1'))), 'the third').to.equal(60);
  });

  it('locks at the threshold within the range, for lockSeconds, then lets the key try again', async () => {
    const { throttle: subject, clock, events } = throttle();
    await fail(subject, 2);
    expect(await retryAfter(probe(subject, SUBJECT))).to.equal('open');
    await fail(subject, 1);
    expect(await retryAfter(probe(subject, SUBJECT))).to.equal(60);
    expect(await retryAfter(probe(subject, { origin: ORIGIN, username: 'alice' }))).to.equal('open');
    clock.advanceSeconds(59.5);
    expect(await retryAfter(probe(subject, SUBJECT))).to.equal(1);
    clock.advanceSeconds(0.5);
    expect(await retryAfter(probe(subject, SUBJECT))).to.equal('open');
    expect(events.ofType('authentication.throttled')).to.deep.equal([{ type: 'authentication.throttled', key: KEY, username: 'casuser', lockSeconds: 60, failures: 3 }]);
    expect(events.origins.get(events.ofType('authentication.throttled')[0]!)).to.equal(ORIGIN);
  });

  it('does not lock when the failures are spread wider than the range', async () => {
    const { throttle: subject, clock } = throttle();
    await fail(subject, 2);
    clock.advanceSeconds(60);
    await fail(subject, 2);
    expect(await retryAfter(probe(subject, SUBJECT))).to.equal('open');
  });

  it('doubles each further lock without a success, up to maxLockSeconds', async () => {
    const { throttle: subject, clock } = throttle();
    const schedule: (number | 'open')[] = [];
    for (let round = 0; round < 4; round++) {
      await fail(subject, 3);
      const seconds = await retryAfter(probe(subject, SUBJECT));
      schedule.push(seconds);
      clock.advanceSeconds(typeof seconds === 'number' ? seconds : 0);
    }
    expect(schedule).to.deep.equal([60, 120, 200, 200]);
  });

  it('starts over after a success: the next lock is lockSeconds again', async () => {
    const { throttle: subject, clock } = throttle();
    await fail(subject, 3);
    clock.advanceSeconds(60);
    await fail(subject, 2);
    await subject.authenticated(authenticatedBy([{ id: 'casuser', type: 'usernamePassword' }]), ORIGIN);
    await fail(subject, 2);
    expect(await retryAfter(probe(subject, SUBJECT))).to.equal('open');
    await fail(subject, 1);
    expect(await retryAfter(probe(subject, SUBJECT))).to.equal(60);
  });

  it("forgets only the keys of the usernames the accepted credentials proved: another principal's success beside a username never does", async () => {
    const { throttle: subject, store } = throttle();
    const address = { origin: ORIGIN };
    await fail(subject, 2);
    await failOnce(subject, address);
    // alice's name was sent beside mallory's certificate: mallory logged in.
    await subject.authenticated(authenticatedBy([{ id: 'CN=mallory,O=Example', type: 'x509' }], 'CN=mallory,O=Example'), ORIGIN);
    expect(await store.get(KEY)).to.deep.include({ failures: 2 });
    expect(await store.get('203.0.113.9')).to.equal(undefined);
    // Another user's password, or the right user's from another address, neither.
    await subject.authenticated(authenticatedBy([{ id: 'alice', type: 'usernamePassword' }], 'alice'), ORIGIN);
    await subject.authenticated(authenticatedBy([{ id: 'casuser', type: 'usernamePassword' }]), { clientAddress: '198.51.100.1', requestId: 'r2' });
    expect(await store.get(KEY)).to.deep.include({ failures: 2 });
    // Without a request there is no address to forget.
    await subject.authenticated(authenticatedBy([{ id: 'casuser', type: 'usernamePassword' }]));
    expect(await store.get(KEY)).to.deep.include({ failures: 2 });
    // The user's own one-time code, however the username was cased, does.
    await subject.authenticated(authenticatedBy([{ id: 'CASUSER', type: 'otp' }, { id: 'CN=casuser,O=Example', type: 'x509' }]), ORIGIN);
    expect(await store.get(KEY)).to.equal(undefined);
  });

  it('a lock of an address alone (no username sent) reports no username', async () => {
    const { throttle: subject, events } = throttle();
    for (let i = 0; i < 3; i++) await failOnce(subject, { origin: ORIGIN, username: ' ' });
    expect(events.ofType('authentication.throttled')).to.deep.equal([{ type: 'authentication.throttled', key: '203.0.113.9', lockSeconds: 60, failures: 3 }]);
  });

  it('refuses attempts while a lock holds, without counting or extending it', async () => {
    const { throttle: subject, clock, events, store } = throttle();
    await fail(subject, 3);
    clock.advanceSeconds(30);
    for (let i = 0; i < 5; i++) expect(await retryAfter(failOnce(subject, SUBJECT))).to.equal(30);
    expect(await store.get(KEY)).to.include({ failures: 0, locks: 1 });
    expect(events.ofType('authentication.throttled')).to.have.length(1);
  });

  /** Request i's subject: its own origin, as each request has. */
  const request = (i: number): ThrottleSubject => ({ ...SUBJECT, origin: { ...ORIGIN, requestId: `r${i}` } });

  it('admits every login sent at once of a key without failures (up to concurrentChecks), and each success settles', async () => {
    const { throttle: subject, store, events } = throttle();
    const requests = Array.from({ length: 20 }, (_, i) => request(i));
    const attempts = await Promise.all(requests.map((who) => subject.admit(who)));
    expect(await store.get(KEY)).to.include({ failures: 0, inFlight: 20 });
    for (let i = 0; i < 20; i++) {
      await subject.authenticated(authenticatedBy([{ id: 'casuser', type: 'usernamePassword' }]), requests[i]!.origin);
      await attempts[i]!.answered();
    }
    expect(await store.get(KEY), 'the last success found nothing else in flight').to.equal(undefined);
    expect(events.ofType('authentication.throttled')).to.deep.equal([]);
  });

  it('bounds the attempts in flight at once of a key without failures by concurrentChecks: one more waits a second; their failures lock once', async () => {
    const { throttle: subject, events } = throttle({ threshold: 3, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 200, concurrentChecks: 8 });
    const admitted = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => subject.admit(request(i))));
    const attempts = admitted.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(attempts).to.have.length(8);
    const refusals = admitted.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(refusals.map((reason) => (reason instanceof ThrottledError ? reason.retryAfterSeconds : reason))).to.deep.equal(Array<number>(12).fill(1));
    await Promise.all(attempts.map((attempt) => attempt.failed()));
    expect(events.ofType('authentication.throttled'), 'locked once, when the third failure was told').to.deep.equal([{ type: 'authentication.throttled', key: KEY, username: 'casuser', lockSeconds: 60, failures: 3 }]);
    expect(await retryAfter(probe(subject, SUBJECT))).to.equal(60);
  });

  it('raises concurrentChecks to the threshold', async () => {
    const { throttle: subject } = throttle({ threshold: 5, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 200, concurrentChecks: 1 });
    const admitted = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => subject.admit(request(i))));
    expect(admitted.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(5);
  });

  it('once a key has failed, admits of many at once only `threshold` minus its failures, the rest refused for a second (those in flight settle by then)', async () => {
    const { throttle: subject, clock, events } = throttle();
    await failOnce(subject, SUBJECT);
    clock.advanceSeconds(10);
    const admitted = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => subject.admit(request(i))));
    const attempts = admitted.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(attempts, 'admitted while none was answered yet').to.have.length(2);
    const refusals = admitted.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(refusals.map((reason) => (reason instanceof ThrottledError ? reason.retryAfterSeconds : reason))).to.deep.equal(Array<number>(18).fill(1));
    for (const attempt of attempts) await attempt.failed();
    expect(events.ofType('authentication.throttled')).to.deep.equal([{ type: 'authentication.throttled', key: KEY, username: 'casuser', lockSeconds: 60, failures: 3 }]);
    expect(await retryAfter(probe(subject, SUBJECT))).to.equal(60);
  });

  it('an attempt answered without a 401 leaves the attempts in flight; the successful request settles once, by its success', async () => {
    const { throttle: subject, store } = throttle();
    const first = await subject.admit(request(1));
    const second = await subject.admit(request(2));
    expect(await store.get(KEY)).to.include({ inFlight: 2 });
    await second.answered();
    expect(await store.get(KEY)).to.include({ inFlight: 1 });
    await first.failed();
    expect(await store.get(KEY)).to.include({ failures: 1, inFlight: 0 });
    const third = request(3);
    const succeeding = await subject.admit(third);
    const other = await subject.admit(request(4));
    await subject.authenticated(authenticatedBy([{ id: 'casuser', type: 'usernamePassword' }]), third.origin);
    expect(await store.get(KEY), 'the failure forgotten; the other attempt still in flight').to.include({ failures: 0, inFlight: 1 });
    await succeeding.answered();
    expect(await store.get(KEY), 'the successful request settled nothing more').to.include({ inFlight: 1 });
    await other.answered();
    expect(await store.get(KEY), 'the last one out leaves nothing to keep').to.equal(undefined);
  });

  it('a right password among guesses in flight forgets the failures told before it; those told after it count, in their window', async () => {
    const { throttle: subject, events, store } = throttle();
    const guesses = [await subject.admit(request(1)), await subject.admit(request(2)), await subject.admit(request(3))];
    const fourth = request(4);
    const right = await subject.admit(fourth);
    await guesses[0]!.failed();
    await guesses[1]!.failed();
    await subject.authenticated(authenticatedBy([{ id: 'casuser', type: 'usernamePassword' }]), fourth.origin);
    await right.answered();
    expect(await store.get(KEY)).to.include({ failures: 0, inFlight: 1, locks: 0 });
    await guesses[2]!.failed();
    expect(await store.get(KEY)).to.include({ failures: 1, inFlight: 0 });
    expect(events.ofType('authentication.throttled')).to.deep.equal([]);
    expect(await retryAfter(probe(subject, SUBJECT)), 'one failure of three').to.equal('open');
  });
});
