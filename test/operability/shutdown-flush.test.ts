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

const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

// Log and audit lines are written in batches off the request path: a clean stop must still write every one.
describe('shutdown: the log and the audit trail are complete after SIGTERM', function () {
  this.timeout(60_000);

  for (const stdout of ['a file', 'a pipe'] as const) {
    it(`a server stopped right after a burst of logins has written every line of them, then its last line (stdout to ${stdout})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tessera-flush-'));
      const files = { config: join(dir, 'tessera.json'), log: join(dir, 'tessera.log'), audit: join(dir, 'audit.log') };
      const config = baseConfig({ audit: { destination: files.audit } });
      rememberConfig(config);
      writeFileSync(files.config, JSON.stringify(config));
      let piped = '';
      const logText = () => (stdout === 'a pipe' ? piped : existsSync(files.log) ? readFileSync(files.log, 'utf8') : '');
      guardOutput(`log (stdout to ${stdout}) of the server stopped after a burst`, logText);
      guardOutput(`audit file ${files.audit}`, () => (existsSync(files.audit) ? readFileSync(files.audit, 'utf8') : ''));

      // As an operator runs it: stdout redirected to a file, or read by a log collector through a pipe.
      const log = stdout === 'a file' ? openSync(files.log, 'a') : 'pipe';
      const child = spawn(process.execPath, [MAIN, 'start', '--config', files.config], { stdio: ['ignore', log, 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
      if (typeof log === 'number') closeSync(log);
      child.stdout?.on('data', (chunk: Buffer) => (piped += chunk.toString()));
      // 'close': the process has exited and its stdout and stderr are read to their end.
      const closed = once(child, 'close');
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      guardOutput('stderr of the server stopped after a burst', () => stderr);

      const url = await readyUrl(logText, () => stderr);
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
      expect((await closed)[0], stderr).to.equal(0);

      const logged = lines(logText());
      expect(logged.filter((line) => line['event'] === 'ticket.created' && line['kind'] === 'TGT')).to.have.length(LOGINS);
      expect(logged.at(-1)?.['msg']).to.equal('tessera stopped');
      const audited = lines(readFileSync(files.audit, 'utf8'));
      expect(audited.filter((line) => line['action'] === 'authentication.succeeded')).to.have.length(LOGINS);
      expect(audited.filter((line) => line['action'] === 'ticket.created')).to.have.length(LOGINS);
      expect(audited.at(-1)?.['action']).to.equal('ticket.created');
    });
  }
});

/** The URL of the ready line, once the log has it. */
async function readyUrl(logText: () => string, stderr: () => string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const ready = /tessera ready at (http:\/\/[^"\s]+)/.exec(logText());
    if (ready) return ready[1]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ready line within 15 s; stderr:\n${stderr()}`);
}
