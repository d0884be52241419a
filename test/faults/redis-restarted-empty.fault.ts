import { expect } from 'chai';
import { RedisServer } from '@tessera/testkit/redis';
import { form } from '../support/tessera.js';
import { clusterSettings, otpCode, startNode, type Node } from '../storage/redis-nodes.js';
import { Load, until } from './support/load.js';
import { needsRedis, settle, targets } from './support/scenario.js';

const UNAVAILABLE = 'A service the server depends on is unavailable; please try again later.';
/** How long a node may take to serve a configured user again once Redis answers (it reconnects at least every second). */
const RECOVERY_BOUND_MS = 5000;

// Redis restarted without persistence under two running nodes and a steady load (as a failover to an
// empty replica or a FLUSHALL leaves it): the configured users and services are the configuration's,
// not copies in Redis, so they log in again as soon as Redis answers, the outage answers 503 (never
// 401, so the throttle counts nothing and locks no one out), and the tickets Redis lost are cleanly
// unknown: 404 and INVALID_TICKET, never a 500.
describe('fault 2: Redis restarted empty', function () {
  let redis: RedisServer | undefined;
  let nodes: Node[] = [];

  before(async function () {
    needsRedis(this);
    redis = await RedisServer.launch();
    const settings = clusterSettings(redis.url);
    nodes = await Promise.all(['node-a', 'node-b'].map((name) => startNode(settings, name, { audit: true })));
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await redis?.dispose();
  });

  it(`answers 503 while Redis is down; within ${RECOVERY_BOUND_MS / 1000} s of it answering, configured users log in on every node, and old tickets are unknown`, async () => {
    let stoppedAt = Infinity;
    // A ticket made before the restart is gone with Redis's data: its TGT unknown (404), its ST INVALID_TICKET.
    const load = new Load(targets(nodes), { tolerated: ({ step, status, code, flowStartedAt }) => flowStartedAt < stoppedAt && ((step === 'st' && status === 404) || code === 'INVALID_TICKET') });
    const [a, b] = targets(nodes) as [ReturnType<typeof targets>[number], ReturnType<typeof targets>[number]];
    load.start();
    await load.untilThrough(10);
    const madeAt = Date.now();
    const oldTgt = (await load.login(a))!;
    const oldSt = (await load.serviceTicket(b, oldTgt, madeAt))!;

    stoppedAt = Date.now();
    await redis!.stop();
    const refused = await fetch(`${b.url}/v1/tickets`, form({ username: 'casuser', password: 'Mellon' }));
    expect(refused.status).to.equal(503);
    expect(await refused.text()).to.equal(UNAVAILABLE);
    // More refused logins than throttle.failure.threshold (3) on each node, none counted as a bad password.
    const during = () => load.answers.filter((answer) => answer.step === 'login' && answer.status === 503 && answer.startedAt > stoppedAt);
    await until(() => nodes.every((node) => during().filter((answer) => answer.node === node.nodeName).length > 3), 'the load met the outage on every node');

    await redis!.start();
    const answeringAt = Date.now();
    const recoveryMs = await load.recoveredAfter(answeringAt, 4 * RECOVERY_BOUND_MS);

    expect((await fetch(`${a.url}/v1/tickets/${oldTgt}`)).status, 'the TGT made before').to.equal(404);
    expect((await load.validate(a, oldSt, { flowStartedAt: madeAt }))?.code, 'the ST made before').to.equal('INVALID_TICKET');
    // The configured OTP setup is the configuration's too: otpuser needs, and passes with, its code.
    expect((await fetch(`${b.url}/v1/tickets`, form({ username: 'otpuser', password: 'Otp-pass' }))).status).to.equal(401);
    expect((await fetch(`${b.url}/v1/tickets`, form({ username: 'otpuser', password: 'Otp-pass', otp: otpCode() }))).status).to.equal(201);
    await settle('2 Redis restarted empty', [load], nodes, { recovery: { ms: recoveryMs, boundMs: RECOVERY_BOUND_MS } });
  });
});
