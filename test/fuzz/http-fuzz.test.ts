import { expect } from 'chai';
import { scrape, valueOf } from '../support/prometheus.js';
import { login } from '../support/tessera.js';
import { fuzz, startFuzzTarget, type FuzzTarget } from './http-fuzz.js';

/** The fuzzer's failed logins may have locked casuser for a second or two (throttle.failure.maxLockSeconds). */
async function loginOnceUnlocked(url: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await login(url, 'casuser', 'Fuzz-Mellon-7');
    } catch (error) {
      if (attempt >= 10 || !String(error).includes('423')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** At least this many in CI; `pnpm fuzz --runs N` sends more. */
const REQUESTS = 20_000;

// Malformed methods, headers, encodings, bodies, XML, JSON, parameters and ticket ids on every route
// of the composed server with every module on: never a 5xx, never a crash, still serving afterwards.
describe('fuzzing every route over HTTP', function () {
  this.timeout(180_000);
  let target: FuzzTarget;
  before(async () => {
    target = await startFuzzTarget();
  });
  after(() => target.close());

  it(`${REQUESTS} generated requests: no 5xx, no hang, no server error logged, and the server still answers`, async () => {
    const { statuses } = await fuzz(target, { requests: REQUESTS });
    const { tessera } = target;
    expect(tessera.logs.filter((line) => line.includes('"server.error"'))).to.deep.equal([]);
    const metrics = await scrape(tessera.server.adminUrl);
    expect(valueOf(metrics, 'tessera_server_errors_total')).to.equal(0);
    // The run reached past the first checks: logins, tickets and validations, not only refusals.
    for (const status of ['200', '201', '400', '401', '404']) expect(statuses.get(status) ?? 0, `answers ${status}`).to.be.above(0);
    expect(await loginOnceUnlocked(tessera.url)).to.match(/^TGT-/);
  });
});
