import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { APP, form } from '../support/tessera.js';
import { clusterSettings, otpCode, startNode, validate, type Node } from './redis-nodes.js';

const UNAVAILABLE = 'A service the server depends on is unavailable; please try again later.';

/** How long a node may take to serve a configured user again once Redis answers (it reconnects at least every second). */
const RECOVERY_BOUND_MS = 5000;

/** The answers of one sign-in as casuser on one node (login, ST for APP, validation), each as `<step> <status>`, and whether it got through. */
async function signIn(node: Node): Promise<{ answers: string[]; through: boolean }> {
  const login = await fetch(`${node.url}/v1/tickets`, { ...form({ username: 'casuser', password: 'Mellon' }), headers: { ...form({}).headers, accept: 'text/plain' } });
  const tgt = await login.text();
  if (login.status !== 201) return { answers: [`login ${login.status}`], through: false };
  const grant = await fetch(`${node.url}/v1/tickets/${tgt}`, form({ service: APP }));
  const st = await grant.text();
  if (grant.status !== 200) return { answers: ['login 201', `st ${grant.status}`], through: false };
  const validation = await validate(node.url, st, APP);
  const through = validation.user === 'casuser';
  return { answers: ['login 201', 'st 200', `validation ${validation.status}${through ? '' : ` ${validation.code ?? ''}`}`], through };
}

/** Signs in on the node again and again until one gets through: how long after `since` that was, and every answer on the way. */
async function recovery(node: Node, since: number): Promise<{ ms: number; answers: string[] }> {
  const answers: string[] = [];
  for (;;) {
    const attempt = await signIn(node);
    answers.push(...attempt.answers);
    if (attempt.through) return { ms: Date.now() - since, answers };
    // Well past the bound, so a slow recovery is reported with its answers rather than as a mocha timeout.
    if (Date.now() - since > 4 * RECOVERY_BOUND_MS) throw new Error(`${node.url}: casuser never got through; answers: ${answers.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Redis restarted without persistence under two running nodes (as a failover to an empty replica or a
// FLUSHALL leaves it): the configured users and services are the configuration's, not copies in Redis,
// so they log in again as soon as Redis answers, and nothing counted during the outage locks them out.
describeWithRedis('two tessera processes whose Redis restarts empty', (redis) => {
  let a: Node;
  let b: Node;

  before(async function () {
    this.timeout(60_000);
    const settings = clusterSettings(redis().url);
    [a, b] = await Promise.all([startNode(settings, 'node-a'), startNode(settings, 'node-b')]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it(`a configured user logs in again on both nodes within ${RECOVERY_BOUND_MS / 1000} s of Redis answering; the outage answers 503, never 401, and locks no one out`, async function () {
    this.timeout(90_000);
    for (const node of [a, b]) expect((await signIn(node)).through, `${node.url} before the restart`).to.equal(true);

    await redis().stop();
    // More attempts than throttle.failure.threshold (3): none may count as a bad password.
    for (const node of [a, b]) {
      for (let attempt = 1; attempt <= 4; attempt++) {
        const refused = await fetch(`${node.url}/v1/tickets`, form({ username: 'casuser', password: 'Mellon' }));
        expect(refused.status, `${node.url} login ${attempt} during the outage`).to.equal(503);
        expect(await refused.text()).to.equal(UNAVAILABLE);
      }
    }

    await redis().start();
    const answering = Date.now();
    expect(redis().cli('dbsize').trim(), 'Redis came back empty').to.equal('0');
    const recovered = await Promise.all([a, b].map((node) => recovery(node, answering)));
    recovered.forEach(({ ms, answers }, index) => {
      const node = [a, b][index]!;
      // Until a node has reconnected it answers 503; a 401 or 423 would be the configured user gone or locked out.
      expect(answers.filter((answer) => !/^(login (201|503)|st (200|503)|validation (200|503))/.test(answer)), `${node.url} answers on the way`).to.deep.equal([]);
      expect(ms, `${node.url} served casuser again after (ms); answers: ${answers.join(', ')}`).to.be.at.most(RECOVERY_BOUND_MS);
    });

    // The configured OTP setup is the configuration's too: otpuser needs, and passes with, its code.
    expect((await fetch(`${b.url}/v1/tickets`, form({ username: 'otpuser', password: 'Otp-pass' }))).status).to.equal(401);
    expect((await fetch(`${b.url}/v1/tickets`, form({ username: 'otpuser', password: 'Otp-pass', otp: otpCode() }))).status).to.equal(201);
    for (const node of [a, b]) {
      expect(node.child.exitCode, `${node.url} still running`).to.equal(null);
      expect(node.stderr()).to.equal('');
    }
  });
});
