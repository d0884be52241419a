import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardOutput } from '../support/log-canary.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPLOY_SCRIPT = 'scripts/deploy-production.sh';
const SERVICE = 'https://app.example.org/home';

/** The image's entry point, started from the deployed tree alone, outside the workspace. */
function startDeployed(app: string, cwd: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(app, 'dist/main.js'), 'start', '--config', join(ROOT, 'deploy/tessera.yaml')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '', ...env },
  });
  let output = '';
  guardOutput('output of the deployed tree', () => output);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 15 s:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /tessera ready at (http:\/\/127\.0\.0\.1:\d+\/cas)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve({ child, url: ready[1]! });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
}

/** The exec form of the Dockerfile's HEALTHCHECK CMD. */
function healthcheckCommand(): string[] {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const exec = /^HEALTHCHECK [^\n]*\\\n\s+CMD (\[.*\])$/m.exec(dockerfile)?.[1];
  if (exec === undefined) throw new Error('no HEALTHCHECK ... CMD [...] in the Dockerfile');
  return JSON.parse(exec) as string[];
}

/** A loopback port nothing listens on: bound once, then closed. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function post(url: string, body: string, accept = 'text/plain'): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept }, body });
}

// the container image: multi-stage, production dependencies only, non-root
describe('container image: the tree its build stage deploys (scripts/deploy-production.sh)', function () {
  this.timeout(120_000);
  const work = mkdtempSync(join(tmpdir(), 'tessera-image-'));
  const app = join(work, 'app');

  before(function () {
    if (!existsSync(join(ROOT, 'packages/cli-server/dist/main.js'))) throw new Error('run "tsc -b" (pnpm test does) before these tests');
    const deployed = spawnSync('bash', [join(ROOT, DEPLOY_SCRIPT), app], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    if (deployed.status !== 0) throw new Error(`${DEPLOY_SCRIPT} failed (${deployed.status}):\n${deployed.stdout}\n${deployed.stderr}`);
  });

  it('is what the Dockerfile builds and runs, as the unprivileged node user', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).to.include(`${DEPLOY_SCRIPT} /out`);
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtimeStage).to.include('COPY --from=build /out /app');
    expect(runtimeStage).to.match(/\nUSER node\n/);
    expect(runtimeStage).to.include('ENTRYPOINT ["node", "/app/dist/main.js"]');
  });

  it('holds the compiled server and production dependencies only: no sources, tests or build tools', () => {
    const installed = readdirSync(join(app, 'node_modules/.pnpm'));
    for (const tool of ['typescript@', 'tsx@', 'mocha@', 'chai@', 'eslint@', 'supertest@', 'mingo@', '@tessera+testkit']) {
      expect(installed.filter((name) => name.startsWith(tool)), tool).to.deep.equal([]);
    }
    expect(installed.some((name) => name.startsWith('koa@'))).to.be.true;
    for (const name of ['core', 'adapter-koa', 'adapter-memory', 'adapter-mongo', 'adapter-ldap']) {
      const files = readdirSync(join(app, 'node_modules/@tessera', name)).filter((entry) => entry !== 'node_modules');
      expect(files.sort(), name).to.deep.equal(['dist', 'package.json']);
    }
    expect(readdirSync(app).sort()).to.deep.equal(['bin', 'dist', 'node_modules', 'package.json']);
  });

  it('serves logins and answers its HEALTHCHECK from that tree alone, with deploy/tessera.yaml (storage switched to memory), and stops on SIGTERM', async () => {
    const env = {
      TESSERA_SERVER__HOST: '127.0.0.1',
      TESSERA_SERVER__PORT: String(await freePort()),
      TESSERA_STORAGE__TYPE: 'memory',
      TESSERA_TOKENS__KEY_FILE: join(work, 'token-keys.json'),
      TESSERA_USERS: JSON.stringify([{ username: 'bob', password: 'builder', attributes: { mail: 'bob@example.org' } }]),
    };
    const { child, url } = await startDeployed(app, work, env);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const created = await post(`${url}/v1/tickets`, 'username=bob&password=builder');
      expect(created.status).to.equal(201);
      const granted = await post(`${url}/v1/tickets/${await created.text()}`, `service=${encodeURIComponent(SERVICE)}`);
      expect(granted.status).to.equal(200);
      const validation = await fetch(`${url}/p3/serviceValidate?service=${encodeURIComponent(SERVICE)}&ticket=${await granted.text()}`);
      const body = await validation.text();
      expect(body).to.include('<cas:user>bob</cas:user>');
      expect(body).to.include('<cas:mail>bob@example.org</cas:mail>');
      expect(existsSync(join(work, 'token-keys.json')), 'the tokens module wrote its key file').to.be.true;
      // The image's HEALTHCHECK command, its paths mapped onto this tree, with the server's environment.
      const [command, ...args] = healthcheckCommand().map((word) => word.replace(/^\/app\//, `${app}/`).replace('/etc/tessera/tessera.yaml', join(ROOT, 'deploy/tessera.yaml')));
      const health = spawnSync(command === 'node' ? process.execPath : command!, args, { cwd: work, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '', ...env } });
      expect(health.status, health.stderr).to.equal(0);
      expect(health.stdout.trim()).to.equal(`${new URL(url).origin}/health/live: 200`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).to.equal(0);
  });
});
