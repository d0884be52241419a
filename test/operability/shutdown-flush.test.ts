import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardOutput, rememberConfig } from '../support/log-canary.js';
import { baseConfig, login } from '../support/tessera.js';

const MAIN = fileURLToPath(new URL('../../packages/cli-server/dist/main.js', import.meta.url));
const LOGINS = 400;
const IN_FLIGHT = 50;

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

// Log and audit lines are written in batches off the request path: a clean stop must still write every one.
describe('shutdown: the log and the audit trail are complete after SIGTERM', function () {
  this.timeout(60_000);

  it('a server stopped right after a burst of logins has written every line of them to its files, then its last line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-flush-'));
    const files = { config: join(dir, 'tessera.json'), log: join(dir, 'tessera.log'), audit: join(dir, 'audit.log') };
    const config = baseConfig({ audit: { destination: files.audit } });
    rememberConfig(config);
    writeFileSync(files.config, JSON.stringify(config));
    guardOutput(`log file ${files.log}`, () => (existsSync(files.log) ? readFileSync(files.log, 'utf8') : ''));
    guardOutput(`audit file ${files.audit}`, () => (existsSync(files.audit) ? readFileSync(files.audit, 'utf8') : ''));

    // As an operator runs it: stdout redirected to a file.
    const log = openSync(files.log, 'a');
    const child = spawn(process.execPath, [MAIN, 'start', '--config', files.config], { stdio: ['ignore', log, 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    closeSync(log);
    const exited = once(child, 'exit');
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    guardOutput('stderr of the server stopped after a burst', () => stderr);

    const url = await readyUrl(files.log, () => stderr);
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < LOGINS) {
          next += 1;
          await login(url);
        }
      }),
    );
    child.kill('SIGTERM');
    expect((await exited)[0], stderr).to.equal(0);

    const logged = lines(files.log);
    expect(logged.filter((line) => line['event'] === 'ticket.created' && line['kind'] === 'TGT')).to.have.length(LOGINS);
    expect(logged.at(-1)?.['msg']).to.equal('tessera stopped');
    const audited = lines(files.audit);
    expect(audited.filter((line) => line['action'] === 'authentication.succeeded')).to.have.length(LOGINS);
    expect(audited.filter((line) => line['action'] === 'ticket.created')).to.have.length(LOGINS);
    expect(audited.at(-1)?.['action']).to.equal('ticket.created');
  });
});

/** The URL of the ready line, once the log file has it. */
async function readyUrl(logFile: string, stderr: () => string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const ready = /tessera ready at (http:\/\/[^"\s]+)/.exec(readFileSync(logFile, 'utf8'));
    if (ready) return ready[1]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ready line within 15 s; stderr:\n${stderr()}`);
}
