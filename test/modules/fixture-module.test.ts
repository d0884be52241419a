import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RedisServer, redisInstalled } from '@tessera/testkit/redis';
import { expect } from 'chai';
import { Browser, headingOf, messageOf, ticketOf } from '../support/browser.js';
import { capturedLines, rememberConfig } from '../support/log-canary.js';
import { APP, baseConfig, form } from '../support/tessera.js';
import { cryptoRandomSource, systemClock, type Clock, type RandomSource, type RecordStores } from '@tessera/core';
import { validate } from './login/support.js';
import { WorkspaceCopy } from '../support/workspace-copy.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/module-pin', import.meta.url));
const MODULE_LIST = 'packages/cli-server/src/modules/index.ts';
const PIN = '2468';
/** A wrong PIN no timestamp, pid or port is likely to spell. */
const WRONG_PIN = '8057913';

/** What a contributor writes in the module list: the module's import, and its entry last in the list. */
function addToModuleList(copy: WorkspaceCopy): void {
  const file = join(copy.root, MODULE_LIST);
  const list = readFileSync(file, 'utf8');
  const entries = /export const MODULES = \[([^\]]*)\] as const;/.exec(list);
  if (!entries) throw new Error(`${MODULE_LIST} has no MODULES list`);
  const withEntry = list.replace(entries[0], `export const MODULES = [${entries[1]}, pinModule] as const;`);
  writeFileSync(file, `import { pinModule } from './pin/index.js';\n${withEntry}`);
}

/** The copy's cli-server, loaded from its sources: a server built with the fixture module in its list. */
interface CopiedServer {
  parseConfig(raw: unknown): unknown;
  startServer(options: { config: unknown; log: NodeJS.WritableStream; auditLog: NodeJS.WritableStream }): Promise<{ url: string; close(): Promise<void> }>;
  /** The module list: the fixture's command among its declarations. */
  readonly MODULES: readonly { readonly commands?: readonly CopiedCommand[] }[];
  openStorage(inputs: { config: unknown; services: []; clock: Clock; random: RandomSource; logger: unknown }): Promise<{ ports: { records: RecordStores }; close(): Promise<void> }>;
  createLogger(level: string): unknown;
}

interface CopiedCommand {
  readonly name: string;
  run(input: { values: Record<string, string>; flags: ReadonlySet<string>; operands: []; out: { write(text: string): unknown }; err: { write(text: string): unknown }; withStores: (work: (stores: { records: RecordStores; random: RandomSource; clock: Clock; durable: boolean }) => Promise<number>) => Promise<number | undefined> }): Promise<number | undefined>;
}

/** Runs the fixture's `tessera pin attempts` in this process, its `withStores` opening the storage of `storage` as the CLI does: what it printed. */
async function pinAttempts(server: CopiedServer, storage: Record<string, unknown>, username: string): Promise<string> {
  const command = server.MODULES.flatMap((module) => module.commands ?? []).find((candidate) => candidate.name === 'pin attempts');
  if (command === undefined) throw new Error('the fixture declares no pin attempts command');
  let printed = '';
  const withStores = async (work: (stores: { records: RecordStores; random: RandomSource; clock: Clock; durable: boolean }) => Promise<number>) => {
    const opened = await server.openStorage({ config: server.parseConfig(baseConfig(storage)), services: [], clock: systemClock, random: cryptoRandomSource, logger: server.createLogger('silent') });
    try {
      return await work({ records: opened.ports.records, random: cryptoRandomSource, clock: systemClock, durable: true });
    } finally {
      await opened.close();
    }
  };
  await command.run({ values: { username }, flags: new Set(), operands: [], out: { write: (text) => (printed += text) }, err: { write: () => undefined }, withStores });
  return printed;
}

interface Started {
  readonly url: string;
  readonly logs: string[];
  readonly audit: string[];
  close(): Promise<void>;
}

async function startWithPin(server: CopiedServer, storage: Record<string, unknown> = {}): Promise<Started> {
  const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-pin-')), 'login-key.json');
  const raw = baseConfig({ modules: ['rest', 'login', 'pin'], login: { keyFile }, pin: { pins: { casuser: PIN }, maxAttempts: 3 }, ...storage });
  rememberConfig(raw);
  const [logs, log] = capturedLines('log of a server with the pin fixture module');
  const [audit, auditLog] = capturedLines('audit trail of a server with the pin fixture module');
  const running = await server.startServer({ config: server.parseConfig(raw), log, auditLog });
  return { url: running.url, logs, audit, close: () => running.close() };
}

const restLogin = (base: string, fields: Record<string, string>) => fetch(`${base}/v1/tickets`, form(fields));

/** The audit records of wrong PINs. */
const pinRefusals = (audit: readonly string[]) => audit.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record['action'] === 'pin.refused');

function behavesAsAModule(title: string, storage: () => Record<string, unknown>, server: () => CopiedServer, inspect?: () => Promise<string[]>): void {
  describe(title, () => {
    let tessera: Started;
    before(async function () {
      this.timeout(60_000);
      tessera = await startWithPin(server(), storage());
    });
    after(() => tessera?.close());

    it('its setting and credential kind: REST asks the PIN of a user who has one, beside the password', async () => {
      expect((await restLogin(tessera.url, { username: 'casuser', password: 'Mellon', pin: PIN })).status).to.equal(201);
      expect((await restLogin(tessera.url, { username: 'alice', password: 'secret' })).status, 'a user without a PIN').to.equal(201);
      const wrong = await restLogin(tessera.url, { username: 'casuser', password: 'Mellon', pin: WRONG_PIN });
      expect(wrong.status).to.equal(401);
    });

    it('its event: a wrong PIN is an audit record naming the user, never the PIN', () => {
      const records = pinRefusals(tessera.audit);
      expect(records).to.have.length.of.at.least(1);
      expect(records[0]).to.deep.include({ audit: 'authentication', outcome: 'failure', who: 'casuser' });
      expect(JSON.stringify(records)).to.not.include(WRONG_PIN);
      expect(tessera.logs.join('\n')).to.not.include(WRONG_PIN);
    });

    it('its login step: /login asks the PIN after the password, and the ticket validates once it is right', async () => {
      const browser = new Browser();
      const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
      const step = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
      expect(step.status, step.body).to.equal(200);
      expect(headingOf(step.body)).to.equal('Your PIN');
      const refused = await browser.submit(step, { pin: '9999' });
      expect(refused.status).to.equal(401);
      expect(messageOf(refused.body)).to.equal('That PIN is wrong.');
      const landing = await browser.submit(refused, { pin: PIN });
      expect(landing.status, landing.body).to.equal(302);
      expect(await validate(tessera.url, APP, ticketOf(landing.location)!)).to.deep.include({ user: 'casuser' });
    });

    it('its store: wrong PINs are counted in its own records, and past the limit even the right PIN is refused', async () => {
      // Two wrong PINs so far (REST, then the form): one more reaches the limit of 3.
      expect((await restLogin(tessera.url, { username: 'casuser', password: 'Mellon', pin: '0000' })).status).to.equal(401);
      expect((await restLogin(tessera.url, { username: 'casuser', password: 'Mellon', pin: PIN })).status).to.equal(401);
      if (inspect) expect(await inspect(), 'the records of the module namespace in the store').to.have.length.of.at.least(1);
    });

    if (inspect) {
      it('its command: `tessera pin attempts` reads the count from the configured storage (withStores)', async () => {
        expect(await pinAttempts(server(), storage(), 'casuser')).to.equal('casuser: 3 wrong PIN(s) in the current window\n');
      });
    }
  });
}

// docs/adding-a-module.md: a capability is its folders and its line in the module list, nothing else.
describe('a new module is its folders and its line in the module list (test/fixtures/module-pin)', function () {
  this.timeout(180_000);
  let copy: WorkspaceCopy;
  let server: CopiedServer;

  before(async () => {
    copy = new WorkspaceCopy();
    for (const pkg of ['core', 'adapter-koa', 'cli-server']) copy.add(join(FIXTURE, pkg), `packages/${pkg}/src/modules/pin`);
    addToModuleList(copy);
    server = (await import(pathToFileURL(join(copy.root, 'packages/cli-server/src/index.ts')).href)) as CopiedServer;
  });
  after(() => copy?.remove());

  it('type-checks with the project (no other file edited)', () => {
    const result = spawnSync(process.execPath, [join(copy.root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/cli-server'], { cwd: copy.root, encoding: 'utf8' });
    expect(result.status, `${result.stdout}${result.stderr}`).to.equal(0);
  });

  behavesAsAModule('on the memory store', () => ({}), () => server);

  describe('on Redis', function () {
    let redis: RedisServer | undefined;
    before(async function () {
      if (!redisInstalled()) {
        process.stdout.write('  skipped: redis-server is not installed (run scripts/install-redis.sh)\n');
        this.skip();
      }
      redis = await RedisServer.launch();
    });
    after(() => redis?.dispose());
    behavesAsAModule(
      'the same on Redis, its records there',
      () => ({ storage: { type: 'redis', redis: { url: redis!.url, keyPrefix: 'pin-fixture:' } } }),
      () => server,
      () => Promise.resolve(spawnSync('redis-cli', ['-p', String(redis!.port), '--raw', 'KEYS', 'pin-fixture:*pin.attempts*'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean)),
    );
  });
});
