import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { APP, form, login, serviceTicket } from '../support/tessera.js';
import { clusterSettings, startNode, validate, type Node } from './redis-nodes.js';

const UNAVAILABLE = 'A service the server depends on is unavailable; please try again later.';

async function until(condition: () => Promise<boolean>, what: string, seconds = 15): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Logins and ST grants on both nodes, one pair after another per node, until stopped: every status seen, as it comes. */
function traffic(nodes: readonly Node[], tgt: string): { readonly statuses: number[]; stop: () => Promise<void> } {
  let running = true;
  const statuses: number[] = [];
  const loops = nodes.map(async (node) => {
    while (running) {
      const answers = await Promise.all([
        fetch(`${node.url}/v1/tickets`, form({ username: 'casuser', password: 'Mellon' })),
        fetch(`${node.url}/v1/tickets/${tgt}`, form({ service: APP })),
      ]);
      statuses.push(...answers.map((answer) => answer.status));
    }
  });
  return {
    statuses,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const ready = (node: Node) => fetch(`${node.origin}/health/ready`).then((response) => response.status === 200);

// Redis stopped under the running nodes, then started again on the same port with its data (an
// append-only file synced at every write): the same processes answer 503 meanwhile, and serve again.
describeWithRedis(
  'two tessera processes while their Redis stops and comes back',
  (redis) => {
    let a: Node;
    let b: Node;
    let prefix: string;

    before(async function () {
      this.timeout(60_000);
      const settings = clusterSettings(redis().url);
      prefix = (settings['storage'] as { redis: { keyPrefix: string } }).redis.keyPrefix;
      [a, b] = await Promise.all([startNode(settings, 'node-a'), startNode(settings, 'node-b')]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
    });

    it('answers 503 with a clear body and reports unready, crashes nothing, leaves no half-written ticket, and serves again by itself', async function () {
      this.timeout(90_000);
      const tgt = await login(a.url);
      const load = traffic([a, b], tgt);
      await until(() => Promise.resolve(load.statuses.length >= 4), 'traffic flows');
      await redis().stop();
      await until(() => Promise.resolve(load.statuses.includes(503)), 'the traffic meets the outage');

      const refusedLogin = await fetch(`${a.url}/v1/tickets`, { ...form({ username: 'casuser', password: 'Mellon' }) });
      expect(refusedLogin.status).to.equal(503);
      expect(await refusedLogin.text()).to.equal(UNAVAILABLE);
      expect((await fetch(`${b.url}/v1/tickets/${tgt}`, form({ service: APP }))).status).to.equal(503);
      const refusedValidation = await validate(a.url, 'ST-1-abcdefghijklmnopqrstuvwxyz-node-b', APP);
      expect(refusedValidation).to.deep.include({ status: 503, code: 'INTERNAL_ERROR' });
      for (const node of [a, b]) {
        expect((await fetch(`${node.origin}/health/ready`)).status, `${node.url} ready`).to.equal(503);
        expect((await fetch(`${node.origin}/health/live`)).status, `${node.url} live`).to.equal(200);
      }

      await redis().start();
      await until(async () => (await ready(a)) && (await ready(b)), 'both nodes ready again');
      // Served again: a run of answers without a 503 (one command may still outlast its 500 ms timeout
      // while the restarted server syncs its append-only file; that 503 is the outage answer, rightly).
      const afterRestart = load.statuses.length;
      await until(() => Promise.resolve(load.statuses.length - afterRestart >= 8 && !load.statuses.slice(-8).includes(503)), 'the traffic is served again: eight answers in a row without a 503');
      await load.stop();
      expect(load.statuses.filter((status) => ![200, 201, 503].includes(status)), 'answers other than success and 503').to.deep.equal([]);
      for (const node of [a, b]) {
        expect(node.child.exitCode, `${node.url} still running`).to.equal(null);
        expect(node.stderr()).to.equal('');
      }
      expect(a.stdout()).to.include('Redis connection lost').and.include('Redis connection restored');

      // The TGT from before the outage is still there, and serves across the nodes as before.
      const st = await serviceTicket(b.url, tgt);
      expect(await validate(a.url, st, APP)).to.deep.include({ status: 200, user: 'casuser' });
      expect(await serviceTicket(a.url, await login(b.url))).to.match(/^ST-/);

      // Every ticket in Redis is whole: each of its fields there, its data readable, each ST in its TGT's index.
      const keys = redis().cli('--scan', '--pattern', `${prefix}ticket:*`).trim().split('\n');
      expect(keys.length).to.be.above(5);
      for (const key of keys) {
        const fields = Object.fromEntries(
          redis()
            .cli('hgetall', key)
            .trimEnd()
            .split('\n')
            .flatMap((line, i, lines) => (i % 2 === 0 ? [[line, lines[i + 1] ?? '']] : [])),
        ) as Record<string, string>;
        const id = key.slice(key.lastIndexOf('}:') + 2);
        const data = JSON.parse(fields['data'] ?? 'null') as Record<string, unknown> | null;
        expect(data, key).to.be.an('object');
        expect(Number(fields['expiresAt']), key).to.be.above(0);
        if (id.startsWith('TGT-')) {
          expect(fields, key).to.include.keys('kind', 'hardExpiresAt', 'servicesGranted');
          expect(data, key).to.include.keys('authentication', 'createdAt');
        } else {
          expect(fields['kind'], key).to.equal('ST');
          expect(data, key).to.include.keys('tgtId', 'service', 'createdAt');
          const index = `${prefix}sts:{${key.slice(key.indexOf('{') + 1, key.indexOf('}'))}}:${String(data!['tgtId'])}`;
          expect(redis().cli('zscore', index, id).trim(), `${id} in ${index}`).to.equal(fields['expiresAt']);
        }
      }
    });
  },
  { persistent: true },
);
