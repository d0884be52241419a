import { expect } from 'chai';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { MODULES, parseConfig, startServer } from '@tessera/cli-server';
import { Argon2PasswordHasher } from '@tessera/core';
import { FixedClock } from '@tessera/testkit';
import { TestPki, type TestAuthority } from '@tessera/testkit/pki';
import { spawnBuiltCli } from './built-cli.js';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI to its end, feeding `stdin`. */
function runCli(args: string[], stdin = '', env: Record<string, string> = {}): Promise<Run> {
  const child = spawnBuiltCli(args, env);
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
    // Well under the driver's own 30 s server selection, which would mean the setting is ignored; loose enough for a loaded machine.
    expect(Date.now() - startedAt).to.be.below(25_000);
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

  it('generate-keys prints a fresh pair of the sizes the algorithm needs; the earlier spelling keys generate still works', async () => {
    const run = await runCli(['generate-keys']);
    expect(run.code).to.equal(0);
    const keys = JSON.parse(run.stdout) as { signingKey: string; encryptionKey: string };
    expect(Buffer.from(keys.encryptionKey, 'base64url')).to.have.length(32);
    expect(keys.signingKey).to.have.length.of.at.least(64);
    expect((JSON.parse((await runCli(['keys', 'generate'])).stdout) as typeof keys).signingKey).to.not.equal(keys.signingKey);
    const wide = JSON.parse((await runCli(['generate-keys', '--algorithm', 'A256CBC-HS512'])).stdout) as typeof keys;
    expect(Buffer.from(wide.encryptionKey, 'base64url')).to.have.length(64);
    expect((await runCli(['generate-keys', '--algorithm', 'RSA'])).code).to.equal(2);
  });

  it('oidc generate-keys prints the oidc key set; --rotate FILE keeps its current key and cookie secret second', async function () {
    // Four CLI processes, two of them making an RSA key: slow on a busy machine.
    this.timeout(90_000);
    type KeySet = { keys: { kid: string; kty: string; alg: string; d: string }[]; cookieSecrets: string[] };
    const first = await runCli(['oidc', 'generate-keys']);
    expect(first.code, first.stderr).to.equal(0);
    const current = JSON.parse(first.stdout) as KeySet;
    expect(current.keys).to.have.length(1);
    expect(current.keys[0]).to.deep.include({ kty: 'RSA', alg: 'RS256' });
    const file = join(mkdtempSync(join(tmpdir(), 'tessera-oidc-rotate-')), 'oidc-keys.json');
    writeFileSync(file, first.stdout);
    const rotated = JSON.parse((await runCli(['oidc', 'generate-keys', '--rotate', file])).stdout) as KeySet;
    expect(rotated.keys.map((key) => key.kid)).to.have.length(2).and.include(current.keys[0]!.kid);
    expect(rotated.keys[1]).to.deep.equal(current.keys[0]);
    expect(rotated.keys[0]!.kid).to.not.equal(current.keys[0]!.kid);
    expect(rotated.cookieSecrets[1]).to.equal(current.cookieSecrets[0]);
    writeFileSync(file, '{"keys": []}');
    const refused = await runCli(['oidc', 'generate-keys', '--rotate', file]);
    expect(refused.code).to.equal(2);
    expect(refused.stderr.trim().split('\n')).to.deep.equal([`tessera oidc generate-keys: --rotate ${file}: needs "keys": the current signing key, then at most the previous one, and EC keys`]);
    // The tokens module's command takes none of the oidc module's options.
    expect((await runCli(['generate-keys', '--rotate', file])).code).to.equal(2);
  });

  it('saml2 generate-keys prints a key set with certificates; --rollover FILE publishes new keys, then makes them current, the salt kept', async function () {
    // Four CLI processes making RSA keys: slow on a busy machine.
    this.timeout(120_000);
    type Key = { state: string; privateKey: string; certificate: string };
    type KeySet = { signing: Key[]; encryption: Key[]; persistentIdSalt: string };
    const first = await runCli(['saml2', 'generate-keys', '--entity-id', 'https://sso.example.org/cas/idp']);
    expect(first.code, first.stderr).to.equal(0);
    const current = JSON.parse(first.stdout) as KeySet;
    expect(current.signing.map((key) => key.state)).to.deep.equal(['current']);
    expect(current.encryption.map((key) => key.state)).to.deep.equal(['current']);
    const certificate = new X509Certificate(current.signing[0]!.certificate);
    expect(certificate.subject).to.equal('CN=sso.example.org SAML signing');
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).to.equal(3072);
    expect(certificate.checkPrivateKey(createPrivateKey(current.signing[0]!.privateKey))).to.equal(true);
    expect(current.encryption[0]!.certificate).to.not.equal(current.signing[0]!.certificate);
    expect(current.persistentIdSalt).to.have.length.of.at.least(32);

    const file = join(mkdtempSync(join(tmpdir(), 'tessera-saml2-rollover-')), 'saml2-keys.json');
    writeFileSync(file, first.stdout);
    const published = await runCli(['saml2', 'generate-keys', '--rollover', file]);
    const next = JSON.parse(published.stdout) as KeySet;
    expect(next.signing.map((key) => key.state)).to.deep.equal(['current', 'next']);
    expect(next.signing[0]).to.deep.equal(current.signing[0]);
    expect(next.persistentIdSalt).to.equal(current.persistentIdSalt);
    expect(published.stderr).to.contain('published in the metadata as the next ones');
    writeFileSync(file, published.stdout);
    const promoted = await runCli(['saml2', 'generate-keys', '--rollover', file]);
    const swapped = JSON.parse(promoted.stdout) as KeySet;
    expect(swapped.signing).to.deep.equal([{ ...next.signing[1]!, state: 'current' }, { ...current.signing[0]!, state: 'previous' }]);
    expect(swapped.encryption.map((key) => key.state)).to.deep.equal(['current', 'previous']);
    expect(promoted.stderr).to.contain('now current');

    writeFileSync(file, '{"signing": []}');
    const refused = await runCli(['saml2', 'generate-keys', '--rollover', file]);
    expect(refused.code).to.equal(2);
    expect(refused.stderr.trim()).to.equal(`tessera saml2 generate-keys: --rollover ${file}: needs "signing": the current key, and at most a next or a previous one`);
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

  it('--help lists every command; each command has its own --help; unknown commands, options and operands exit 2', async function () {
    // Some twenty CLI processes, most of them at once: slow on a busy machine.
    this.timeout(90_000);
    const help = await runCli(['--help']);
    expect(help.code).to.equal(0);
    const listed = [...help.stdout.matchAll(/^ {2}tessera ([a-z0-9-]+(?: [a-z-]+)?)/gm)].map((match) => match[1]);
    expect(listed).to.deep.equal(COMMANDS);
    // A module's commands come from its declaration (TesseraModule.commands), as the CLI takes them.
    expect(COMMANDS).to.include.members(MODULES.flatMap((module) => (module.commands ?? []).map((command) => command.name)));
    const helps = await Promise.all(COMMANDS.map((command) => runCli([...command.split(' '), '--help'])));
    helps.forEach((run, index) => {
      expect(run.code, COMMANDS[index]).to.equal(0);
      expect(run.stdout, COMMANDS[index]).to.match(new RegExp(`^Usage: tessera ${COMMANDS[index]}\\b[^]*\\n\\nOptions:\\n[^]*--help`));
    });
    const group = await runCli(['services', '--help']);
    expect(group.stdout.trim().split('\n').slice(1).map((line) => line.trim().split(' ').slice(0, 3).join(' '))).to.deep.equal(['tessera services list', 'tessera services import', 'tessera services validate']);
    const refused = await Promise.all([['serve'], ['--verbose'], ['generate-keys', '--config', 'x.yaml'], ['services', 'import'], ['hash-password', 'now']].map((args) => runCli(args)));
    refused.forEach((run) => expect(run.code, run.stderr).to.equal(2));
    expect(refused[2]!.stderr).to.include('--config is not an option of tessera generate-keys');
  });

  it('config check reads settings, service files and key files as start does, writes nothing, serves nothing: exit 0', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'tessera-check-'));
    writeFileSync(join(directory, 'app.json'), '// an app\n{ "name": "App", "id": 5, "serviceId": "^https://app/.*", }\n');
    const keyFile = join(directory, 'keys.json');
    const file = configFile({ modules: ['rest', 'tokens'], tokens: { keyFile }, servicesDirectory: directory, users: [] });
    const run = await runCli(['config', 'check', '--config', file], '', { TESSERA_SERVER__PORT: '9443' });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include(`${file}: configuration OK`);
    expect(run.stdout).to.include('would serve http://127.0.0.1:9443/cas with modules rest, tokens; 0 user(s), 1 service(s)');
    expect(run.stdout).to.include(`tokens.keyFile ${keyFile} does not exist yet`);
    expect(existsSync(keyFile), 'no key file written').to.equal(false);
  });

  it('config check warns about each service whose host is not pinned, configured or in servicesDirectory: exit 0', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'tessera-check-'));
    writeFileSync(join(directory, 'wiki.json'), JSON.stringify({ name: 'Wiki', id: 5, serviceId: '^https://wiki.example.org/.*' }));
    const services = [{ name: 'Portal', id: 6, serviceId: '^https://portal\\.example\\.org/.*', proxyPolicy: { '@class': 'org.apereo.cas.services.RegexMatchingRegisteredServiceProxyPolicy', pattern: '^https://.*' } }];
    const run = await runCli(['config', 'check', '--config', configFile({ services, servicesDirectory: directory, users: [] })]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('  warning: '))).to.deep.equal([
      '  warning: service "Portal" (id 6): the host of its proxy callbacks is not pinned: proxyPolicy.pattern ^https://.* matches URLs of any host; write the host out (its subdomains as [a-z0-9-]+\\.example\\.org) and end it with /, :port, ? or $',
      '  warning: service "Wiki" (id 5): its host is not pinned: serviceId ^https://wiki.example.org/.* has an unescaped . in its host, which matches any character, so it also matches URLs of other hosts; write each dot of the host as \\.',
    ]);
  });

  it('config check of the demo writes no key file, and names the state folder start keeps them in', async () => {
    const state = mkdtempSync(join(tmpdir(), 'tessera-state-'));
    const run = await runCli(['config', 'check'], '', { XDG_STATE_HOME: state });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include(`  note: login.keyFile ${join(state, 'tessera', 'tessera-login-key.json')} does not exist yet: start writes new keys there\n`);
    expect(readdirSync(state), 'nothing written, not even the folder').to.deep.equal([]);
    // The demo's service accepts every URL on purpose: demo mode says so, not a warning about its host.
    expect(run.stdout).to.not.include('warning:');
  });

  it('config check warns about a key file others than its owner may read, naming it and its mode', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'tessera-check-'));
    const keyFile = join(directory, 'login-key.json');
    writeFileSync(keyFile, JSON.stringify({ secret: 'A'.repeat(43) }));
    chmodSync(keyFile, 0o604);
    const run = await runCli(['config', 'check', '--config', configFile({ modules: ['rest', 'login'], login: { keyFile }, users: [] })]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('  warning: '))).to.deep.equal([
      `  warning: login.keyFile ${keyFile} is open to users other than its owner (mode 0604): whoever can read it holds this server's keys; make it readable by tessera's user only (chmod 600; on a Kubernetes secret volume, defaultMode 0400)`,
    ]);
    expect(run.stdout).to.not.include('A'.repeat(43));
  });

  it('config check: exit 2 with one line per problem, naming the setting and the variable it came from', async () => {
    const run = await runCli(['config', 'check', '--config', configFile({ rest: { revision: 'old' } })], '', { TESSERA_SERVER__PORT: 'eighty' });
    expect(run.code).to.equal(2);
    expect(run.stderr.trim().split('\n')).to.deep.equal([
      'tessera: invalid configuration',
      '  server.port (TESSERA_SERVER__PORT): expected a number from 0 to 65535',
      '  rest.revision: expected current or earlier',
    ]);
    const files = await runCli(['config', 'check', '--config', configFile({ server: { tls: { cert: join(tmpdir(), 'no-such.pem'), key: join(tmpdir(), 'no-such.key') } } })]);
    expect(files.code).to.equal(2);
    expect(files.stderr).to.include(`server.tls.cert: cannot read ${join(tmpdir(), 'no-such.pem')} (ENOENT)`);
  });
});

const COMMANDS = ['start', 'config check', 'hash-password', 'generate-keys', 'oidc generate-keys', 'saml2 generate-keys', 'services list', 'services import', 'services validate', 'otp new', 'webauthn list', 'webauthn remove', 'health'];

describe('tessera health', function () {
  this.timeout(30_000);
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  let pki: TestAuthority;
  let directory: string;
  before(async () => {
    pki = await new TestPki(new FixedClock().now()).rootAuthority();
    directory = mkdtempSync(join(tmpdir(), 'tessera-health-'));
  });

  it('asks /health/live where the configuration says the server listens: a wildcard host on loopback, the port from the environment too', async () => {
    const server = await startServer({ config: parseConfig({ server: { host: '127.0.0.1', port: 0 } }), log: quiet });
    try {
      const file = configFile({ server: { host: '0.0.0.0', port: 1 } });
      const run = await runCli(['health', '--config', file], '', { TESSERA_SERVER__PORT: String(server.port) });
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout.trim()).to.equal(`http://127.0.0.1:${server.port}/health/live: 200`);
    } finally {
      await server.close();
    }
    const down = await runCli(['health', '--config', configFile({ server: { port: server.port } })]);
    expect(down.code).to.equal(1);
    expect(down.stderr).to.match(new RegExp(`^tessera health: http://127\\.0\\.0\\.1:${server.port}/health/live: .*ECONNREFUSED`));
  });

  it('speaks HTTPS when server.tls is set, and asks the admin listener when admin.port is set', async () => {
    const issued = await pki.issue({ subject: 'CN=tessera.example.org' });
    const tls = { cert: join(directory, 'server.pem'), key: join(directory, 'server.key') };
    writeFileSync(tls.cert, issued.pem);
    writeFileSync(tls.key, issued.privateKeyPem);
    const adminPort = await closedPort();
    const server = await startServer({ config: parseConfig({ server: { port: 0, tls } }), log: quiet });
    const withAdmin = await startServer({ config: parseConfig({ server: { port: 0 }, admin: { port: adminPort } }), log: quiet });
    try {
      const https = await runCli(['health', '--config', configFile({ server: { port: server.port, tls } })]);
      expect(https.code, https.stderr).to.equal(0);
      expect(https.stdout.trim()).to.equal(`https://127.0.0.1:${server.port}/health/live: 200`);
      const admin = await runCli(['health', '--config', configFile({ server: { port: withAdmin.port }, admin: { port: adminPort } })]);
      expect(admin.code, admin.stderr).to.equal(0);
      expect(admin.stdout.trim()).to.equal(`http://127.0.0.1:${adminPort}/health/live: 200`);
    } finally {
      await Promise.all([server.close(), withAdmin.close()]);
    }
  });

  it('exits 1, never 2 (Docker reserves it), on a configuration it cannot use', async () => {
    const run = await runCli(['health', '--config', configFile({ server: { port: 0 } })]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('server.port is 0');
    expect((await runCli(['health'], '', { TESSERA_SERVER__PORT: 'x' })).code).to.equal(1);
  });
});
