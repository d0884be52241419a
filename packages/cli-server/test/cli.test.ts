import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Argon2PasswordHasher } from '@tessera/core';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAIN = join(ROOT, 'packages/cli-server/src/main.ts');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI from source, as `node dist/main.js` would run, feeding `stdin`. */
function runCli(args: string[], stdin = ''): Promise<Run> {
  const child = spawn(process.execPath, ['--conditions=source', '--import=tsx', MAIN, ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A loopback port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function configFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tessera-cli-')), 'tessera.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

// commands start (default) and hash-password
describe('tessera CLI', function () {
  this.timeout(30_000);

  it('bad settings exit 2 with a line naming each, without serving', async () => {
    const run = await runCli(['--config', configFile({ server: { port: 99999 }, rest: { revision: 'old' } })]);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('server.port: expected a number from 0 to 65535');
    expect(run.stderr).to.include('rest.revision: expected current or earlier');
    expect(run.stdout).to.not.include('ready');
  });

  it('a bad services directory exits 2 naming the file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'tessera-cli-services-'));
    writeFileSync(join(directory, 'broken.json'), '{');
    const run = await runCli(['--config', configFile({ servicesDirectory: directory }), '--port', '0']);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.match(/servicesDirectory: .*broken\.json: not valid JSON/);
  });

  it('storage.type mongo with an unreachable database exits 1 within seconds, one line naming storage.mongo.uri', async () => {
    const port = await closedPort();
    const startedAt = Date.now();
    const storage = { type: 'mongo', mongo: { uri: `mongodb://127.0.0.1:${port}/?directConnection=true`, timeoutSeconds: 1 } };
    const run = await runCli(['--config', configFile({ storage, logging: { level: 'silent' } })]);
    expect(run.code).to.equal(1);
    expect(Date.now() - startedAt).to.be.below(10_000);
    const lines = run.stderr.trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(new RegExp(`^tessera: storage\\.mongo\\.uri: cannot reach MongoDB within 1 s: .*127\\.0\\.0\\.1:${port}`));
    expect(run.stdout).to.not.include('ready');
  });

  it('a MongoDB URI the driver cannot parse exits 2 as bad configuration, naming storage.mongo.uri', async () => {
    const run = await runCli(['--config', configFile({ storage: { type: 'mongo', mongo: { uri: 'mongodb://db:99999' } }, logging: { level: 'silent' } })]);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.match(/storage\.mongo\.uri: .*db:99999/);
  });

  it('hash-password reads the password from stdin and prints an argon2id hash that verifies', async () => {
    const run = await runCli(['hash-password'], 'Correct horse battery staple\n');
    expect(run.code).to.equal(0);
    const phc = run.stdout.trim();
    expect(phc).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(run.stdout.split('\n')).to.have.length(2);
    const hasher = new Argon2PasswordHasher();
    expect(await hasher.verify(phc, 'Correct horse battery staple')).to.equal(true);
    expect(await hasher.verify(phc, 'correct horse battery staple')).to.equal(false);
    expect(run.stdout + run.stderr).to.not.include('Correct horse');
  });

  it('hash-password with nothing on stdin exits 2', async () => {
    const run = await runCli(['hash-password'], '');
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('no password');
  });

  it('keys generate prints a fresh pair of the sizes the algorithm needs', async () => {
    const run = await runCli(['keys', 'generate']);
    expect(run.code).to.equal(0);
    const keys = JSON.parse(run.stdout) as { signingKey: string; encryptionKey: string };
    expect(Buffer.from(keys.encryptionKey, 'base64url')).to.have.length(32);
    expect(keys.signingKey).to.have.length.of.at.least(64);
    expect((JSON.parse((await runCli(['keys', 'generate'])).stdout) as typeof keys).signingKey).to.not.equal(keys.signingKey);
    const wide = JSON.parse((await runCli(['keys', 'generate', '--algorithm', 'A256CBC-HS512'])).stdout) as typeof keys;
    expect(Buffer.from(wide.encryptionKey, 'base64url')).to.have.length(64);
    expect((await runCli(['keys', 'generate', '--algorithm', 'RSA'])).code).to.equal(2);
  });

  it('otp new prints a fresh base32 secret for otpSecret and its otpauth:// URI; --user is required', async () => {
    const run = await runCli(['otp', 'new', '--user', 'alice']);
    expect(run.code).to.equal(0);
    const [secretLine, uri] = run.stdout.trim().split('\n');
    const secret = /^otpSecret: ([A-Z2-7]{32})$/.exec(secretLine ?? '')?.[1];
    expect(secret, run.stdout).to.be.a('string');
    expect(uri).to.equal(`otpauth://totp/tessera:alice?issuer=tessera&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
    expect((await runCli(['otp', 'new', '--user', 'alice'])).stdout).to.not.include(secret);
    expect((await runCli(['otp', 'new'])).code).to.equal(2);
  });

  it('--help prints the commands; an unknown command or option exits 2', async () => {
    const help = await runCli(['--help']);
    expect(help.code).to.equal(0);
    expect(help.stdout).to.include('hash-password').and.include('--config FILE').and.include('--port N');
    expect((await runCli(['serve'])).code).to.equal(2);
    expect((await runCli(['--verbose'])).code).to.equal(2);
  });
});
