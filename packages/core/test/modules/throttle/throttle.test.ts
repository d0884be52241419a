import { expect } from 'chai';
import { ThrottledError, type Authentication } from '@tessera/core';
import { AuthenticationThrottle, throttleKey } from '@tessera/core/modules/throttle';
import { FixedClock, RecordingEvents } from '../../fakes.js';
import { MapThrottleStore } from '@tessera/testkit/modules/throttle';

const ORIGIN = { clientAddress: '203.0.113.9', requestId: 'r1' };
const SUBJECT = { origin: ORIGIN, username: 'CasUser' };
const KEY = throttleKey('203.0.113.9', 'CasUser');

function throttle(settings = { threshold: 3, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 200 }) {
  const clock = new FixedClock();
  const store = new MapThrottleStore();
  const events = new RecordingEvents();
  return { clock, store, events, throttle: new AuthenticationThrottle(store, clock, settings, events, ['usernamePassword', 'otp']) };
}

/** A success with these credentials, as the Authenticator reports it to its listeners. */
function authenticatedBy(credentials: Authentication['credentials'], principal = 'casuser'): Authentication {
  return { principal: { id: principal, attributes: {} }, authenticatedAt: 0, credentials, successes: {}, attributes: {} };
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
  for (let i = 0; i < times; i++) await subject.failed(SUBJECT);
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
    await subject.failed(first);
    await subject.failed(second);
    expect(await retryAfter(subject.check(first))).to.equal('open');
    await subject.failed(second);
    expect(await retryAfter(subject.check(first))).to.equal(60);
    expect(await retryAfter(subject.check(second))).to.equal(60);
    expect(await retryAfter(subject.check(from('2001:db8:0:7::ffff')))).to.equal(60);
    expect(await retryAfter(subject.check(from('2001:db8:0:8::1')))).to.equal('open');
    expect(events.ofType('authentication.throttled')).to.deep.equal([{ type: 'authentication.throttled', key: '2001:db8:0:7::/64 casuser', username: 'casuser', lockSeconds: 60, failures: 3 }]);
  });

  it("a success from one address of a /64 forgets the network's failures for the user it proved", async () => {
    const { throttle: subject } = throttle();
    const from = (clientAddress: string) => ({ origin: { clientAddress, requestId: clientAddress }, username: 'casuser' });
    await subject.failed(from('2001:db8:0:7::1'));
    await subject.failed(from('2001:db8:0:7::2'));
    await subject.authenticated(authenticatedBy([{ type: 'usernamePassword', id: 'casuser' }]), from('2001:db8:0:7::3').origin);
    await subject.failed(from('2001:db8:0:7::4'));
    await subject.failed(from('2001:db8:0:7::5'));
    expect(await retryAfter(subject.check(from('2001:db8:0:7::1'))), 'two failures since the success').to.equal('open');
    await subject.failed(from('2001:db8:0:7::6'));
    expect(await retryAfter(subject.check(from('2001:db8:0:7::1'))), 'the third').to.equal(60);
  });

  it('locks at the threshold within the range, for lockSeconds, then lets the key try again', async () => {
    const { throttle: subject, clock, events } = throttle();
    await fail(subject, 2);
    expect(await retryAfter(subject.check(SUBJECT))).to.equal('open');
    await fail(subject, 1);
    expect(await retryAfter(subject.check(SUBJECT))).to.equal(60);
    expect(await retryAfter(subject.check({ origin: ORIGIN, username: 'alice' }))).to.equal('open');
    clock.advanceSeconds(59.5);
    expect(await retryAfter(subject.check(SUBJECT))).to.equal(1);
    clock.advanceSeconds(0.5);
    expect(await retryAfter(subject.check(SUBJECT))).to.equal('open');
    expect(events.ofType('authentication.throttled')).to.deep.equal([{ type: 'authentication.throttled', key: KEY, username: 'casuser', lockSeconds: 60, failures: 3 }]);
    expect(events.origins.get(events.ofType('authentication.throttled')[0]!)).to.equal(ORIGIN);
  });

  it('does not lock when the failures are spread wider than the range', async () => {
    const { throttle: subject, clock } = throttle();
    await fail(subject, 2);
    clock.advanceSeconds(60);
    await fail(subject, 2);
    expect(await retryAfter(subject.check(SUBJECT))).to.equal('open');
  });

  it('doubles each further lock without a success, up to maxLockSeconds', async () => {
    const { throttle: subject, clock } = throttle();
    const schedule: (number | 'open')[] = [];
    for (let round = 0; round < 4; round++) {
      await fail(subject, 3);
      const seconds = await retryAfter(subject.check(SUBJECT));
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
    expect(await retryAfter(subject.check(SUBJECT))).to.equal('open');
    await fail(subject, 1);
    expect(await retryAfter(subject.check(SUBJECT))).to.equal(60);
  });

  it("forgets only the keys of the usernames the accepted credentials proved: another principal's success beside a username never does", async () => {
    const { throttle: subject, store } = throttle();
    const address = { origin: ORIGIN };
    await fail(subject, 2);
    await subject.failed(address);
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
    for (let i = 0; i < 3; i++) await subject.failed({ origin: ORIGIN, username: ' ' });
    expect(events.ofType('authentication.throttled')).to.deep.equal([{ type: 'authentication.throttled', key: '203.0.113.9', lockSeconds: 60, failures: 3 }]);
  });

  it('never extends a lock with failures reported while it holds', async () => {
    const { throttle: subject, clock, events } = throttle();
    await fail(subject, 3);
    clock.advanceSeconds(30);
    await fail(subject, 5);
    expect(await retryAfter(subject.check(SUBJECT))).to.equal(30);
    expect(events.ofType('authentication.throttled')).to.have.length(1);
  });
});
