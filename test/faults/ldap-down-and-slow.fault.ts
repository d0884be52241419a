import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Slapd, slapdInstalled } from '@tessera/testkit';
import { baseConfig } from '../support/tessera.js';
import { ldapConfig } from '../ldap/ldap-support.js';
import { startNode, type Node } from '../storage/redis-nodes.js';
import { Load, until } from './support/load.js';
import { settle, targets } from './support/scenario.js';

/** ldap.connectTimeoutMs and ldap.operationTimeoutMs of the node (ldapConfig). */
const LDAP_TIMEOUTS_MS = 1000 + 1000;
/** A login that meets the fault answers 503 within the LDAP timeouts, and a loaded machine's delay. */
const ANSWER_BOUND_MS = LDAP_TIMEOUTS_MS + 1000;
/** From the directory answering again to a flow through (each login opens a connection of its own). */
const RECOVERY_BOUND_MS = 3000;
const THRESHOLD = 3;

/** A user of the directory alone (config-users does not know it), and one of the configuration. */
const DIRECTORY_USER = { username: 'comma,user', password: 'comma-secret' };
const CONFIGURED_USER = { username: 'alice', password: 'secret' };

// The directory stopped (refuses connections) or hung (SIGSTOP: connections accepted, nothing
// answered) under a steady load of a directory user's flows and a configured user's: the directory
// user's logins answer 503 within the LDAP timeouts, never 401, so the throttle counts nothing; the
// configured user logs in throughout; and logins pass again once the directory answers.
describe('fault 5: LDAP down and LDAP slow', function () {
  let slapd: Slapd | undefined;
  let nodes: Node[] = [];

  before(async function () {
    if (!slapdInstalled()) {
      process.stdout.write('  skipped: slapd is not installed (run scripts/install-slapd.sh)\n');
      this.skip();
    }
    slapd = await Slapd.launch();
  });
  afterEach(async () => {
    slapd?.resume();
    await Promise.all(nodes.map((node) => node.stop()));
  });
  after(async () => {
    await slapd?.dispose();
  });

  for (const fault of ['down', 'slow'] as const) {
    it(`LDAP ${fault}: the directory's logins answer 503 within ${ANSWER_BOUND_MS} ms and count no failure, configured users log in, and logins pass within ${RECOVERY_BOUND_MS / 1000} s of its return`, async () => {
      const settings = baseConfig({
        modules: ['rest', 'throttle'],
        authentication: { handlers: ['config-users', 'ldap'] },
        ldap: ldapConfig(slapd!),
        throttle: { failure: { threshold: THRESHOLD, rangeSeconds: 60, lockSeconds: 60 } },
        logging: { level: 'info' },
      });
      nodes = [await startNode(settings, `ldap-${fault}`, { audit: true })];
      const directory = new Load(targets(nodes), { ...DIRECTORY_USER, concurrency: 3 }).start();
      const configured = new Load(targets(nodes), { ...CONFIGURED_USER, concurrency: 1, unaffected: true }).start();
      await directory.untilThrough(5);

      const faultAt = Date.now();
      if (fault === 'down') await slapd!.stop();
      else slapd!.pause();
      const refused = () => directory.answers.filter((answer) => answer.step === 'login' && answer.startedAt >= faultAt && answer.status === 503);
      // More refused logins than the throttle's threshold, and the configured user through meanwhile.
      await until(() => refused().length > 2 * THRESHOLD && configured.flows.some((flow) => flow.through && flow.startedAt >= faultAt), 'the load met the fault');

      if (fault === 'down') await slapd!.start();
      else slapd!.resume();
      const backAt = Date.now();
      const recoveryMs = await directory.recoveredAfter(backAt, 4 * RECOVERY_BOUND_MS);

      const slow = refused().filter((answer) => answer.ms > ANSWER_BOUND_MS).map((answer) => `${answer.ms} ms`);
      expect(slow, `503s slower than ${ANSWER_BOUND_MS} ms`).to.deep.equal([]);
      const slowest = Math.max(...refused().map((answer) => answer.ms));
      await settle(`5 LDAP ${fault}`, [directory, configured], nodes, { recovery: { ms: recoveryMs, boundMs: RECOVERY_BOUND_MS }, note: `slowest 503 ${slowest} ms (bound ${ANSWER_BOUND_MS} ms)` });
      const audit = readFileSync(nodes[0]!.auditFile!, 'utf8');
      expect(audit, 'the outage counted as failed logins').to.not.include('"action":"authentication.throttled"');
    });
  }
});
