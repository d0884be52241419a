import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { ThrottledError, type ClientAuthenticationOutcome } from '@tessera/core';
import { ClientAuthenticationThrottle, clientThrottleKey, FailureLocks, throttleKey, type ThrottleStore } from '@tessera/core/modules/throttle';
import { FixedClock, RecordingEvents } from '../../fakes.js';
import { MapThrottleStore } from '@tessera/testkit/modules/throttle';

const ORIGIN = { clientAddress: '203.0.113.9', requestId: 'r1' };
const SUBJECT = { origin: ORIGIN, clientId: 'rp' };

/** The store, with the calls made to it by name: what a request costs the storage. */
function countingStore(): { store: ThrottleStore; calls: string[] } {
  const inner = new MapThrottleStore();
  const calls: string[] = [];
  const store: ThrottleStore = {
    get: (key) => (calls.push('get'), inner.get(key)),
    admit: (key, now, limits) => (calls.push('admit'), inner.admit(key, now, limits)),
    failed: (key, windowEndsAt) => (calls.push('failed'), inner.failed(key, windowEndsAt)),
    unjudged: (key, windowEndsAt) => (calls.push('unjudged'), inner.unjudged(key, windowEndsAt)),
    lock: (key, now, until, minFailures) => (calls.push('lock'), inner.lock(key, now, until, minFailures)),
    forget: (key, now, windowEndsAt) => (calls.push('forget'), inner.forget(key, now, windowEndsAt)),
  };
  return { store, calls };
}

function throttle() {
  const clock = new FixedClock();
  const events = new RecordingEvents();
  const { store, calls } = countingStore();
  const locks = new FailureLocks(store, clock, { threshold: 3, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 200 });
  return { clock, events, calls, throttle: new ClientAuthenticationThrottle(locks, events) };
}

/** A request admitted is answered without judging the client (its attempt given back): 'open'; else the refusal's Retry-After. */
async function retryAfter(admitted: Promise<ClientAuthenticationOutcome | void>): Promise<number | 'open'> {
  try {
    await (await admitted)?.unjudged();
    return 'open';
  } catch (error) {
    if (!(error instanceof ThrottledError)) throw error;
    return error.retryAfterSeconds;
  }
}

async function fail(subject: ClientAuthenticationThrottle, times: number, attempt = SUBJECT): Promise<void> {
  for (let i = 0; i < times; i++) await (await subject.admit(attempt)).failed();
}

// docs/protocol.md §5.5 — the throttle's policy on client authentication at the OAuth token endpoints
describe('client authentication throttle (docs/protocol.md §5.5)', () => {
  it('keys by the address group and the client_id as sent, apart from every username key', () => {
    expect(clientThrottleKey('203.0.113.9', 'rp')).to.equal('client 203.0.113.9 rp');
    expect(clientThrottleKey('2001:db8:0:7::1', 'rp')).to.equal('client 2001:db8:0:7::/64 rp');
    expect(clientThrottleKey('203.0.113.9', 'RP')).to.not.equal(clientThrottleKey('203.0.113.9', 'rp'));
    expect(clientThrottleKey('203.0.113.9', 'rp')).to.not.equal(throttleKey('203.0.113.9', 'rp'));
  });

  it('keys an id no client has by the address group alone, apart from every client and username key', () => {
    expect(clientThrottleKey('203.0.113.9', undefined)).to.equal('unknown-client 203.0.113.9');
    expect(clientThrottleKey('2001:db8:0:7::1', undefined)).to.equal('unknown-client 2001:db8:0:7::/64');
    expect(clientThrottleKey('203.0.113.9', undefined)).to.not.equal(throttleKey('203.0.113.9', undefined)).and.not.equal(throttleKey('203.0.113.9', 'unknown-client'));
  });

  it('keys a client_id longer than 256 characters by its SHA-256: a flood of long made-up ids keeps short keys, each id still its own', async () => {
    const long = 'x'.repeat(50_000);
    const key = clientThrottleKey('203.0.113.9', long);
    expect(key.length, 'the key of a 50,000-character id').to.be.below(80);
    expect(key).to.equal(`client 203.0.113.9 sha256:${createHash('sha256').update(long).digest('base64url')}`);
    expect(clientThrottleKey('203.0.113.9', `${long}y`)).to.not.equal(key);
    expect(clientThrottleKey('203.0.113.9', 'x'.repeat(256)), 'at the bound: as sent').to.equal(`client 203.0.113.9 ${'x'.repeat(256)}`);
    const { throttle: subject, events } = throttle();
    await fail(subject, 3, { origin: ORIGIN, clientId: long });
    expect(await retryAfter(subject.admit({ origin: ORIGIN, clientId: long }))).to.equal(60);
    expect(events.ofType('client.throttled').map((event) => event.key)).to.deep.equal([key]);
  });

  it('locks at the threshold: the lock is refused on admission with Retry-After, once reported, for that address and client only', async () => {
    const { throttle: subject, clock, events } = throttle();
    await fail(subject, 3);
    expect(await retryAfter(subject.admit(SUBJECT))).to.equal(60);
    expect(await retryAfter(subject.admit({ origin: ORIGIN, clientId: 'other' }))).to.equal('open');
    expect(await retryAfter(subject.admit({ origin: { clientAddress: '198.51.100.1', requestId: 'r2' }, clientId: 'rp' }))).to.equal('open');
    expect(events.ofType('client.throttled')).to.deep.equal([{ type: 'client.throttled', key: 'client 203.0.113.9 rp', client: 'rp', lockSeconds: 60, failures: 3 }]);
    expect(events.origins.get(events.ofType('client.throttled')[0]!)).to.equal(ORIGIN);
    clock.advanceSeconds(60);
    expect(await retryAfter(subject.admit(SUBJECT))).to.equal('open');
  });

  it('a client authenticating costs one atomic admission and one forget; one never judged, an admission and its settle; a failure, its settle', async () => {
    const { throttle: subject, calls } = throttle();
    await (await subject.admit(SUBJECT)).authenticated();
    expect(calls).to.deep.equal(['admit', 'forget']);
    calls.length = 0;
    await (await subject.admit(SUBJECT)).unjudged();
    expect(calls).to.deep.equal(['admit', 'unjudged']);
    calls.length = 0;
    await (await subject.admit(SUBJECT)).failed();
    expect(calls).to.deep.equal(['admit', 'failed']);
  });

  it('admits every authentication sent at once of a client without failures, however many (a busy relying party)', async () => {
    const { throttle: subject, events } = throttle();
    const outcomes = await Promise.all(Array.from({ length: 100 }, () => subject.admit(SUBJECT)));
    await Promise.all(outcomes.map((outcome) => outcome.authenticated()));
    expect(events.ofType('client.throttled')).to.deep.equal([]);
    expect(await retryAfter(subject.admit(SUBJECT))).to.equal('open');
  });

  it('once a client has failed, admits of many at once only `threshold` minus its failures; their failures lock once', async () => {
    const { throttle: subject, events } = throttle();
    await fail(subject, 1);
    const admitted = await Promise.allSettled(Array.from({ length: 20 }, () => subject.admit(SUBJECT)));
    const outcomes = admitted.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(outcomes).to.have.length(2);
    expect(admitted.filter((outcome) => outcome.status === 'rejected' && outcome.reason instanceof ThrottledError && outcome.reason.retryAfterSeconds === 1)).to.have.length(18);
    await Promise.all(outcomes.map((outcome) => outcome.failed()));
    expect(events.ofType('client.throttled')).to.deep.equal([{ type: 'client.throttled', key: 'client 203.0.113.9 rp', client: 'rp', lockSeconds: 60, failures: 3 }]);
    expect(await retryAfter(subject.admit(SUBJECT))).to.equal(60);
  });

  it('an attempt never judged (a public client, a request refused first) leaves the attempts in flight: such requests never fill the window', async () => {
    const { throttle: subject } = throttle();
    for (let i = 0; i < 10; i++) await (await subject.admit(SUBJECT)).unjudged();
    await fail(subject, 2);
    expect(await retryAfter(subject.admit(SUBJECT).then((outcome) => outcome.unjudged())), 'two failures counted').to.equal('open');
  });

  it('a success forgets the failures counted before it, and the doubling of the next lock', async () => {
    const { throttle: subject, clock } = throttle();
    await fail(subject, 3);
    clock.advanceSeconds(60);
    await (await subject.admit(SUBJECT)).authenticated();
    await fail(subject, 2);
    expect(await retryAfter(subject.admit(SUBJECT)), 'two failures since the success').to.equal('open');
    await fail(subject, 1);
    expect(await retryAfter(subject.admit(SUBJECT)), 'a first lock again').to.equal(60);
    clock.advanceSeconds(60);
    await fail(subject, 3);
    expect(await retryAfter(subject.admit(SUBJECT)), 'without a success, doubled').to.equal(120);
  });
});
