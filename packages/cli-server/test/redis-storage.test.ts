import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { freePort } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { parseConfig, startServer, type RunningServer } from '@tessera/cli-server';
import { spawnBuiltCli } from './built-cli.js';

const APP = 'https://app.example.org/home';
const PASSWORD = 'hunter2-redis';
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

/** Starts the built CLI (`command`, then `--config` with these settings) and the environment given; its process, output so far and exit. */
function spawnCli(settings: unknown, env: Record<string, string> = {}, command: string[] = []) {
  const file = join(mkdtempSync(join(tmpdir(), 'tessera-redis-cli-')), 'tessera.json');
  writeFileSync(file, JSON.stringify(settings));
  const child = spawnBuiltCli([...command, '--config', file], env);
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output, exited };
}

/** Runs the CLI to its end; its exit code and output. */
async function runCli(settings: unknown, env: Record<string, string> = {}, command: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { output, exited } = spawnCli(settings, env, command);
  const code = await exited;
  return { code, ...output };
}

const post = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' }, body: new URLSearchParams(fields).toString() });

describe('storage.type redis at start', function () {
  this.timeout(30_000);

  it('an unreachable Redis does not stop the server: it starts, says so once (storage.redis.url, its password masked), and is live but not ready', async () => {
    const port = await freePort();
    const settings = { storage: { type: 'redis', redis: { connectTimeoutMs: 1000 } }, logging: { level: 'info' }, audit: { destination: 'off' }, users: [{ username: 'casuser', password: 'Mellon' }] };
    const { child, output, exited } = spawnCli(settings, { TESSERA_STORAGE__REDIS__URL: `redis://:${PASSWORD}@127.0.0.1:${port}` });
    try {
      const deadline = Date.now() + 15_000;
      while (!/tessera ready at (\S+)"/.test(output.stdout)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ready line: ${output.stdout}${output.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = /tessera ready at (\S+)"/.exec(output.stdout)![1]!;
      const origin = new URL(url).origin;
      expect((await fetch(`${origin}/health/ready`)).status).to.equal(503);
      expect((await fetch(`${origin}/health/live`)).status).to.equal(200);
      expect((await post(`${url}/v1/tickets`, { username: 'casuser', password: 'Mellon' })).status).to.equal(503);
      const warnings = output.stdout.split('\n').filter((line) => line.includes('Redis cannot be reached yet'));
      expect(warnings).to.have.length(1);
      const warning = JSON.parse(warnings[0]!) as { setting: string; reason: string; msg: string };
      expect(warning.setting).to.equal('storage.redis.url');
      expect(warning.msg).to.match(/^storage\.redis\.url: Redis cannot be reached yet: serving, not ready/);
      expect(warning.reason).to.match(new RegExp(`^cannot reach Redis \\(redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}\\) within 1000 ms`));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).to.equal(0);
    expect(output.stderr).to.equal('');
    expect(output.stdout + output.stderr).to.not.include(PASSWORD);
  });

  it('a CLI command that needs an unreachable Redis exits 1 within seconds, one line naming storage.redis.url, its password masked', async () => {
    const port = await freePort();
    const startedAt = Date.now();
    const run = await runCli({ storage: { type: 'redis', redis: { connectTimeoutMs: 1000 } }, logging: { level: 'silent' } }, { TESSERA_STORAGE__REDIS__URL: `redis://:${PASSWORD}@127.0.0.1:${port}` }, ['services', 'list']);
    expect(run.code).to.equal(1);
    expect(Date.now() - startedAt).to.be.below(15_000);
    const lines = run.stderr.trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(new RegExp(`^tessera: storage\\.redis\\.url: cannot reach Redis \\(redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}\\) within 1000 ms`));
    expect(run.stdout + run.stderr).to.not.include(PASSWORD);
  });
});

describeWithRedis(
  'storage.type redis against a redis-server that needs a password',
  (redis) => {
    it('a wrong password exits 2 as bad configuration, naming storage.redis.url, the password in no output', async function () {
      this.timeout(30_000);
      const url = redis().url.replace(PASSWORD, 'not-the-password');
      const run = await runCli({ storage: { type: 'redis', redis: { url } }, logging: { level: 'silent' } });
      expect(run.code).to.equal(2);
      expect(run.stderr).to.match(/storage\.redis\.url: Redis refused: WRONGPASS/);
      expect(run.stdout + run.stderr).to.not.include('not-the-password');
    });

    it('a start that fails after connecting (its port in use) closes the connection again', async () => {
      const clients = () => redis().cli('client', 'list').trim().split('\n').length;
      const before = clients();
      const busy = await startServer({ config: parseConfig({ server: { port: 0 } }), log: quiet });
      try {
        const config = parseConfig({ server: { port: busy.port }, storage: { type: 'redis', redis: { url: redis().url } } });
        const error = await startServer({ config, log: quiet }).then(
          async (unexpected) => (await unexpected.close(), expect.fail('expected the start to fail')),
          (thrown: unknown) => thrown as NodeJS.ErrnoException,
        );
        expect(error.code).to.equal('EADDRINUSE');
        expect(clients()).to.equal(before);
      } finally {
        await busy.close();
      }
    });

    describe('a server composed on it', () => {
      let server: RunningServer;
      const logs: string[] = [];
      const prefix = `cli${process.pid}:`;

      before(async () => {
        const log = new Writable({ write: (chunk: Buffer, _encoding, done) => (logs.push(chunk.toString()), done()) });
        const config = parseConfig({
          server: { port: 0 },
          storage: { type: 'redis', redis: { url: redis().url, keyPrefix: prefix } },
          users: [{ username: 'casuser', password: 'Mellon', attributes: { memberOf: ['staff'] } }],
          services: [{ '@class': 'org.apereo.cas.services.CasRegisteredService', id: 1, name: 'App', serviceId: '^https://app\\.example\\.org/.*' }],
        });
        server = await startServer({ config, log, auditLog: log });
      });
      after(() => server.close());

      it('saves the configured services into Redis but not the configured users, which it reads from the configuration, and never logs the password', async () => {
        expect(redis().cli('hkeys', `${prefix}services`).trim()).to.equal('1');
        expect(redis().cli('exists', `${prefix}user:casuser`).trim()).to.equal('0');
        const tgt = await (await post(`${server.url}/v1/tickets`, { username: 'casuser', password: 'Mellon' })).text();
        const st = await (await post(`${server.url}/v1/tickets/${tgt}`, { service: APP })).text();
        const validation = await fetch(`${server.url}/p3/serviceValidate?${new URLSearchParams({ service: APP, ticket: st }).toString()}`);
        expect(await validation.text()).to.include('<cas:user>casuser</cas:user>');
        expect((await fetch(`${server.adminUrl}/health/ready`)).status).to.equal(200);
        expect(logs.join('')).to.include('Redis storage ready').and.include('redis://:***@127.0.0.1');
        expect(logs.join('')).to.not.include(PASSWORD);
      });
    });
  },
  { password: PASSWORD },
);
