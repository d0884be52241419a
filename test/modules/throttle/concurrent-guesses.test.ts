import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Argon2PasswordHasher } from '@tessera/core';
import { describeWithRedis } from '@tessera/testkit/redis';
import { form, startTessera, type Tessera } from '../../support/tessera.js';

/** A threshold of 3, and a bound of 4 checks at once on a key without failures (the default, 32, far above the guesses' 20). */
const SETTINGS = { failure: { threshold: 3, rangeSeconds: 60, lockSeconds: 30, maxLockSeconds: 120, concurrentChecks: 4 } };
/** The same threshold with the default bound of checks at once: what a user's own logins sent at once meet. */
const DEFAULT_BOUND = { failure: { threshold: 3, rangeSeconds: 60, lockSeconds: 30, maxLockSeconds: 120 } };
const GUESSES = 20;
const LOGINS = 20;

/** casuser's password as argon2id: each check takes a real hash's time, so guesses sent at once are all in flight together. */
async function hashedUsers(): Promise<unknown[]> {
  return [{ username: 'casuser', passwordHash: await new Argon2PasswordHasher().hash('Mellon') }];
}

function post(base: string, username: string, password: string): Promise<Response> {
  return fetch(`${base}/v1/tickets`, { ...form({ username, password }), headers: { ...form({}).headers, accept: 'text/plain' } });
}

/** The passwords a node checked and refused: one `authentication.failed` event per check, a request's events on one line. */
function checked(node: Tessera): number {
  return node.logs.filter((line) => line.includes('"authentication.failed"')).length;
}

/** `count` wrong passwords for casuser sent at once, the i-th to `nodes[i % nodes.length]`; their statuses, sorted. */
async function guessAtOnce(nodes: readonly Tessera[], count = GUESSES): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => post(nodes[i % nodes.length]!.url, 'casuser', `guess-${i}-at-once`)));
  return answers.map((answer) => answer.status).sort();
}

/** `count` right passwords for casuser sent at once, the i-th to `nodes[i % nodes.length]`; their statuses. */
async function logInAtOnce(nodes: readonly Tessera[], count = LOGINS): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => post(nodes[i % nodes.length]!.url, 'casuser', 'Mellon')));
  return answers.map((answer) => answer.status);
}

/**
 * Guesses on a key without failures: at least `threshold` and at most `concurrentChecks` (4) checked,
 * as many as were in flight before the first failure was told; each checked one answered 401, the rest 423.
 */
function expectBoundedBurst(statuses: number[], checked: number): void {
  expect(checked, 'passwords checked').to.be.within(3, 4);
  expect(statuses).to.deep.equal([...Array<number>(checked).fill(401), ...Array<number>(GUESSES - checked).fill(423)]);
}

/** Guesses on a key with one failure: `threshold` minus it checked, the rest 423. */
const AFTER_A_FAILURE = [...Array<number>(2).fill(401), ...Array<number>(GUESSES - 2).fill(423)];

// docs/protocol.md §5 — an attempt is admitted before its password is checked: guesses sent at once, to one
// node or to two sharing a store, get no more than `concurrentChecks` checked on a key without failures and
// `threshold` on one with (D2 of the hostile review), while one user's right passwords sent at once all log in.
describe('throttle module: guesses sent at once (docs/protocol.md §5)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({ modules: ['rest', 'throttle'], throttle: SETTINGS, users: await hashedUsers() });
  });
  after(() => tessera.close());

  it(`of ${GUESSES} wrong passwords sent at once while argon2 checks them, no more than concurrentChecks (4) are checked; the rest get 423 unchecked, and one lock is logged`, async () => {
    expectBoundedBurst(await guessAtOnce([tessera]), checked(tessera));
    expect(tessera.logs.filter((line) => line.includes('"authentication.throttled"'))).to.have.length(1);
    expect((await post(tessera.url, 'casuser', 'Mellon')).status, 'locked').to.equal(423);
  });

  it(`of ${GUESSES} wrong passwords sent at once after one failure, threshold minus it (2) are checked`, async () => {
    const other = await startTessera({ modules: ['rest', 'throttle'], throttle: SETTINGS, users: await hashedUsers() });
    try {
      expect(await guessAtOnce([other], 1)).to.deep.equal([401]);
      expect(await guessAtOnce([other])).to.deep.equal(AFTER_A_FAILURE);
      expect(checked(other), 'passwords checked, the first failure included').to.equal(3);
    } finally {
      await other.close();
    }
  });

  it(`${LOGINS} right passwords of one user sent at once from one address while argon2 checks them all log in (the default bound)`, async () => {
    const other = await startTessera({ modules: ['rest', 'throttle'], throttle: DEFAULT_BOUND, users: await hashedUsers() });
    try {
      expect(await logInAtOnce([other])).to.deep.equal(Array<number>(LOGINS).fill(201));
    } finally {
      await other.close();
    }
  });

  it('a right password after fewer than threshold failures logs in and forgets the key', async () => {
    const other = await startTessera({ modules: ['rest', 'throttle'], throttle: SETTINGS, users: await hashedUsers() });
    try {
      expect(await guessAtOnce([other], 2)).to.deep.equal([401, 401]);
      expect((await post(other.url, 'casuser', 'Mellon')).status).to.equal(201);
      // Forgotten: two more failures and a right password, not a lock after the third.
      expect(await guessAtOnce([other], 2)).to.deep.equal([401, 401]);
      expect((await post(other.url, 'casuser', 'Mellon')).status).to.equal(201);
      expect(other.logs.filter((line) => line.includes('"authentication.throttled"'))).to.deep.equal([]);
    } finally {
      await other.close();
    }
  });
});

describeWithRedis('throttle module: guesses sent at once to two nodes on one Redis (docs/protocol.md §5)', (redis) => {
  let nodes: Tessera[];
  before(async function () {
    this.timeout(30_000);
    const shared = { modules: ['rest', 'throttle'], throttle: SETTINGS, users: await hashedUsers(), storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `throttle${randomBytes(4).toString('hex')}:` } } };
    nodes = [await startTessera(shared), await startTessera(shared)];
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.close()));
  });

  it(`${LOGINS} right passwords of one user split across both nodes at once all log in (the default bound)`, async function () {
    this.timeout(30_000);
    const prefix = `logins${randomBytes(4).toString('hex')}:`;
    const shared = { modules: ['rest', 'throttle'], throttle: DEFAULT_BOUND, users: await hashedUsers(), storage: { type: 'redis', redis: { url: redis().url, keyPrefix: prefix } } };
    const pair = [await startTessera(shared), await startTessera(shared)];
    try {
      expect(await logInAtOnce(pair)).to.deep.equal(Array<number>(LOGINS).fill(201));
      expect(redis().cli('--scan', '--pattern', `${prefix}throttle:*`).trim(), 'every attempt settled: the key forgotten').to.equal('');
    } finally {
      await Promise.all(pair.map((node) => node.close()));
    }
  });

  it(`of ${GUESSES} wrong passwords split across both nodes, no more than concurrentChecks (4) are checked between them; the rest get 423 unchecked`, async () => {
    expectBoundedBurst(await guessAtOnce(nodes), checked(nodes[0]!) + checked(nodes[1]!));
    const locks = nodes.flatMap((node) => node.logs.filter((line) => line.includes('"authentication.throttled"')));
    expect(locks, 'one lock, logged by the node that reached it').to.have.length(1);
    for (const node of nodes) expect((await post(node.url, 'casuser', 'Mellon')).status, node.url).to.equal(423);
  });
});
