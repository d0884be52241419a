import { DirectoryPasswordHandler } from '@tessera/core';
import { expect } from 'chai';
import type { Response } from 'supertest';
import { APP, createTgt, testServer, UNREGISTERED, type ServerSetup } from '../../harness.js';
import { CountingHasher, ListUserDirectory } from '@tessera/testkit';
import type { PasswordHasher } from '@tessera/core';

const SETTINGS = { threshold: 3, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 900 };
const GOOD = { username: 'casuser', password: 'Mellon' };
const BAD = { username: 'casuser', password: 'guess' };

/** The throttle module on, casuser's password behind a counting hasher. */
function throttled(setup: ServerSetup = {}) {
  const hasher = new CountingHasher();
  const directory = new ListUserDirectory([{ username: 'casuser', password: { kind: 'hash', phc: 'hashed:Mellon' }, attributes: {} }]);
  const server = testServer({ throttle: SETTINGS, handlers: [new DirectoryPasswordHandler('users', directory, hasher)], ...setup });
  const post = (path: string, form: object, headers: Record<string, string> = {}) =>
    server.http.post(`/cas${path}`).set('Accept', 'text/plain').set(headers).type('form').send(form);
  return { ...server, hasher, post };
}

/**
 * A password check that answers only when the test lets it: every verification started waits, as a slow
 * hash or directory would, so requests sent at once are all in flight before any is answered.
 */
class HeldHasher implements PasswordHasher {
  readonly inner = new CountingHasher();
  private readonly held: (() => void)[] = [];
  get waiting(): number {
    return this.held.length;
  }
  hash(password: string): Promise<string> {
    return this.inner.hash(password);
  }
  async verify(phc: string, password: string): Promise<boolean> {
    await new Promise<void>((resolve) => this.held.push(resolve));
    return this.inner.verify(phc, password);
  }
  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
}

/** Resolves once `condition` holds, looking again after each turn of the event loop (no timer). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

function visible(response: Response) {
  return { status: response.status, type: response.headers['content-type'], retryAfter: response.headers['retry-after'], body: response.text };
}

describe('docs/protocol.md §5 throttle module: routes', () => {
  it('holds a brute force at the threshold: 423 JSON with Retry-After, no hashing while locked, open again after lockSeconds', async () => {
    const server = throttled();
    for (let i = 0; i < 3; i++) expect((await server.post('/v1/tickets', BAD)).status).to.equal(401);
    const hashesBeforeLock = server.hasher.verifications;
    const locked = await server.post('/v1/tickets', GOOD);
    expect(locked.status).to.equal(423);
    expect(locked.headers['content-type']).to.match(/^application\/json/);
    expect(locked.headers['retry-after']).to.equal('60');
    for (let i = 0; i < 5; i++) expect((await server.post('/v1/tickets', BAD)).status).to.equal(423);
    expect(server.hasher.verifications).to.equal(hashesBeforeLock);
    server.clock.advanceSeconds(45);
    expect((await server.post('/v1/tickets', GOOD)).headers['retry-after']).to.equal('15');
    server.clock.advanceSeconds(15);
    expect((await server.post('/v1/tickets', GOOD)).status).to.equal(201);
  });

  it('tells nothing more than the 423 itself: locked answers are identical for right and wrong passwords, 401s do not count down', async () => {
    const server = throttled();
    const failures = [];
    for (let i = 0; i < 3; i++) failures.push(visible(await server.post('/v1/tickets', BAD)));
    expect(failures[2]).to.deep.equal(failures[0]);
    const right = visible(await server.post('/v1/tickets', GOOD));
    const wrong = visible(await server.post('/v1/tickets', BAD));
    expect(right).to.deep.equal(wrong);
    expect(JSON.parse(right.body)).to.deep.equal({ authentication_exceptions: ['Too many failed attempts. Try again later.'] });
  });

  it('counts 401 answers only: missing credentials (400) and refused services (403) never lock', async () => {
    const server = throttled();
    for (let i = 0; i < 5; i++) expect((await server.post('/v1/tickets', { username: 'casuser' })).status).to.equal(400);
    for (let i = 0; i < 5; i++) expect((await server.post('/v1/tickets', { ...GOOD, service: UNREGISTERED })).status).to.equal(403);
    expect((await server.post('/v1/tickets', GOOD)).status).to.equal(201);
  });

  it('a success resets the count', async () => {
    const server = throttled();
    for (let i = 0; i < 2; i++) await server.post('/v1/tickets', BAD);
    expect((await server.post('/v1/users', GOOD)).status).to.equal(200);
    for (let i = 0; i < 2; i++) await server.post('/v1/tickets', BAD);
    expect((await server.post('/v1/tickets', GOOD)).status).to.equal(201);
  });

  it('keys on the client IP and the lower-cased username; a forged X-Forwarded-For changes nothing', async () => {
    const server = throttled();
    for (let i = 0; i < 3; i++) await server.post('/v1/tickets', { username: 'CasUser', password: 'guess' });
    expect((await server.post('/v1/tickets', GOOD)).status).to.equal(423);
    expect((await server.post('/v1/tickets', GOOD, { 'X-Forwarded-For': '198.51.100.7' })).status).to.equal(423);
    expect((await server.post('/v1/tickets', { username: 'alice', password: 'x' })).status).to.equal(401);
  });

  it('behind a trusted proxy, keys on the address the proxy appended last', async () => {
    const server = throttled({ options: { trustProxy: true } });
    const via = (client: string) => ({ 'X-Forwarded-For': client });
    for (let i = 0; i < 3; i++) await server.post('/v1/tickets', BAD, via('10.0.0.1, 203.0.113.9'));
    expect((await server.post('/v1/tickets', GOOD, via('forged, 203.0.113.9'))).status).to.equal(423);
    expect((await server.post('/v1/tickets', GOOD, via('198.51.100.7'))).status).to.equal(201);
  });

  it('guards /v1/users and renew on /v1/tickets/{tgt}; an ST without renew is not throttled', async () => {
    const server = throttled();
    const tgt = await createTgt(server, GOOD);
    await server.post('/v1/users', BAD);
    await server.post(`/v1/tickets/${tgt}`, { ...BAD, service: APP, renew: 'true' });
    expect((await server.post(`/v1/tickets/${tgt}`, { ...BAD, service: APP, renew: 'true' })).status).to.equal(401);
    expect((await server.post('/v1/users', GOOD)).status).to.equal(423);
    expect((await server.post(`/v1/tickets/${tgt}`, { ...GOOD, service: APP, renew: 'true' })).status).to.equal(423);
    expect((await server.post(`/v1/tickets/${tgt}`, { ...GOOD, service: APP })).status).to.equal(200);
  });

  it('checks at most `threshold` of many wrong passwords sent at once while the check is slow: the rest get 423 without a check', async () => {
    const hasher = new HeldHasher();
    const directory = new ListUserDirectory([{ username: 'casuser', password: { kind: 'hash', phc: 'hashed:Mellon' }, attributes: {} }]);
    const server = throttled({ handlers: [new DirectoryPasswordHandler('users', directory, hasher)] });
    const answered: number[] = [];
    const requests = Array.from({ length: 20 }, (_, i) => server.post('/v1/tickets', { username: 'casuser', password: `guess-${i}` }).then((response) => answered.push(response.status)));
    // Every request has either been answered or is waiting on its password check: none is still on its way.
    await until(() => answered.length + hasher.waiting === 20);
    hasher.release();
    await Promise.all(requests);
    expect(hasher.inner.verifications, 'passwords checked').to.equal(3);
    expect([...answered].sort()).to.deep.equal([...Array<number>(3).fill(401), ...Array<number>(17).fill(423)]);
    expect(server.events.ofType('authentication.throttled')).to.have.length(1);
    expect((await server.post('/v1/tickets', GOOD)).status, 'locked by the three failures').to.equal(423);
  });

  it('a right password among guesses in flight logs in and forgets the key: the failures told after it lock nothing', async () => {
    const hasher = new HeldHasher();
    const directory = new ListUserDirectory([{ username: 'casuser', password: { kind: 'hash', phc: 'hashed:Mellon' }, attributes: {} }]);
    const server = throttled({ handlers: [new DirectoryPasswordHandler('users', directory, hasher)] });
    // supertest sends a request once it is awaited: `then` sends each now.
    const requests = [BAD, GOOD, BAD].map((form) => server.post('/v1/tickets', form).then((response) => response.status));
    await until(() => hasher.waiting === 3);
    hasher.release();
    const statuses = await Promise.all(requests);
    expect(statuses).to.deep.equal([401, 201, 401]);
    expect(server.events.ofType('authentication.throttled')).to.deep.equal([]);
    const again = [BAD, BAD, GOOD].map((form) => server.post('/v1/tickets', form).then((response) => response.status));
    await until(() => hasher.waiting === 3);
    hasher.release();
    expect(await Promise.all(again), 'the two failures before the success are forgotten: three more are checked').to.deep.equal([401, 401, 201]);
  });

  it('costs the store one atomic count per attempt, then one reset for a success, one read for a failure, one give-back otherwise', async () => {
    const server = throttled();
    const calls: string[] = [];
    const store = server.throttleStore as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const method of ['get', 'countAttempt', 'releaseAttempt', 'lock', 'reset']) {
      const original = store[method]!.bind(store);
      store[method] = (...args) => (calls.push(method), original(...args));
    }
    const costOf = async (form: object) => {
      calls.length = 0;
      await server.post('/v1/tickets', form);
      return [...calls];
    };
    expect(await costOf(GOOD), 'a login').to.deep.equal(['countAttempt', 'reset']);
    expect(await costOf(BAD), 'a wrong password').to.deep.equal(['countAttempt', 'get']);
    expect(await costOf({ username: 'casuser' }), 'no password (400)').to.deep.equal(['countAttempt', 'releaseAttempt']);
  });

  it('module off: failures never lock', async () => {
    const server = throttled({ throttle: undefined });
    for (let i = 0; i < 10; i++) expect((await server.post('/v1/tickets', BAD)).status).to.equal(401);
    expect((await server.post('/v1/tickets', GOOD)).status).to.equal(201);
  });
});
