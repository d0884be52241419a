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

  /** `forms` posted at once to a server whose password check is held until every request is answered or waiting on it; their statuses, in order. */
  async function atOnce(server: ReturnType<typeof throttled>, hasher: HeldHasher, forms: readonly object[]): Promise<number[]> {
    let answered = 0;
    // supertest sends a request once it is awaited: `then` sends each now.
    const requests = forms.map((form) => server.post('/v1/tickets', form).then((response) => (answered++, response.status)));
    // Every request has either been answered or is waiting on its password check: none is still on its way.
    await until(() => answered + hasher.waiting === forms.length);
    hasher.release();
    return Promise.all(requests);
  }

  function heldServer(settings: object = SETTINGS) {
    const hasher = new HeldHasher();
    const directory = new ListUserDirectory([{ username: 'casuser', password: { kind: 'hash', phc: 'hashed:Mellon' }, attributes: {} }]);
    return { hasher, server: throttled({ throttle: { ...SETTINGS, ...settings }, handlers: [new DirectoryPasswordHandler('users', directory, hasher)] }) };
  }

  it('checks every one of 50 right passwords of one user sent at once from one address while the check is slow: all log in (the default concurrentChecks, 32, raised for the test to 64)', async () => {
    const { hasher, server } = heldServer({ concurrentChecks: 64 });
    const statuses = await atOnce(server, hasher, Array<object>(50).fill(GOOD));
    expect(hasher.inner.verifications, 'passwords checked').to.equal(50);
    expect(statuses).to.deep.equal(Array<number>(50).fill(201));
    expect(server.throttleStore.states.size, 'every attempt settled: the key forgotten').to.equal(0);
  });

  it('checks every one of 20 right passwords sent at once with the default settings', async () => {
    const { hasher, server } = heldServer({ concurrentChecks: undefined });
    expect(await atOnce(server, hasher, Array<object>(20).fill(GOOD))).to.deep.equal(Array<number>(20).fill(201));
  });

  it('checks at most concurrentChecks of many wrong passwords sent at once on a key without failures: the rest get 423 (Retry-After: 1) unchecked, and one lock follows', async () => {
    const { hasher, server } = heldServer({ concurrentChecks: 8 });
    const statuses = await atOnce(server, hasher, Array.from({ length: 20 }, (_, i) => ({ username: 'casuser', password: `guess-${i}` })));
    expect(hasher.inner.verifications, 'passwords checked').to.equal(8);
    expect([...statuses].sort()).to.deep.equal([...Array<number>(8).fill(401), ...Array<number>(12).fill(423)]);
    expect(server.events.ofType('authentication.throttled')).to.have.length(1);
    expect((await server.post('/v1/tickets', GOOD)).status, 'locked by the failures').to.equal(423);
  });

  it('once the key has a failure, checks at most `threshold` minus it of many wrong passwords sent at once: the rest get 423 until the window ends', async () => {
    const { hasher, server } = heldServer();
    expect(await atOnce(server, hasher, [BAD])).to.deep.equal([401]);
    const statuses = await atOnce(server, hasher, Array.from({ length: 20 }, (_, i) => ({ username: 'casuser', password: `guess-${i}` })));
    expect(hasher.inner.verifications, 'passwords checked, the first failure included').to.equal(3);
    expect([...statuses].sort()).to.deep.equal([...Array<number>(2).fill(401), ...Array<number>(18).fill(423)]);
    expect(server.events.ofType('authentication.throttled')).to.have.length(1);
  });

  it('a right password among guesses in flight logs in and forgets the failures told before it: no lock', async () => {
    const { hasher, server } = heldServer();
    expect(await atOnce(server, hasher, [BAD])).to.deep.equal([401]);
    expect(await atOnce(server, hasher, [BAD, GOOD])).to.deep.equal([401, 201]);
    expect(server.events.ofType('authentication.throttled')).to.deep.equal([]);
    // At most the guess told after the success is left: one more failure locks nothing.
    expect(await atOnce(server, hasher, [BAD])).to.deep.equal([401]);
    expect(server.events.ofType('authentication.throttled')).to.deep.equal([]);
    expect(await atOnce(server, hasher, [GOOD])).to.deep.equal([201]);
    expect(server.throttleStore.states.size).to.equal(0);
  });

  it('costs the store one atomic admission per attempt, then one forget for a success, one settle for a failure, one settle otherwise', async () => {
    const server = throttled();
    const calls: string[] = [];
    const store = server.throttleStore as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const method of ['get', 'admit', 'failed', 'unjudged', 'lock', 'forget']) {
      const original = store[method]!.bind(store);
      store[method] = (...args) => (calls.push(method), original(...args));
    }
    const costOf = async (form: object) => {
      calls.length = 0;
      await server.post('/v1/tickets', form);
      return [...calls];
    };
    expect(await costOf(GOOD), 'a login').to.deep.equal(['admit', 'forget']);
    expect(await costOf(BAD), 'a wrong password').to.deep.equal(['admit', 'failed']);
    expect(await costOf({ username: 'casuser' }), 'no password (400)').to.deep.equal(['admit', 'unjudged']);
  });

  it('module off: failures never lock', async () => {
    const server = throttled({ throttle: undefined });
    for (let i = 0; i < 10; i++) expect((await server.post('/v1/tickets', BAD)).status).to.equal(401);
    expect((await server.post('/v1/tickets', GOOD)).status).to.equal(201);
  });
});
