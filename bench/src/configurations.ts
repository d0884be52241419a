import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@tessera/testkit';
import { RedisServer, redisInstalled } from '@tessera/testkit/redis';
import { oidcSettings, samlSettings, type Fixtures } from './fixtures.js';
import { tesseraCommand } from './processes/tessera-process.js';
import { spMetadata } from './saml-sp.js';
import type { BenchOptions } from './options.js';
import { referenceRows, type RowName } from './rows.js';

/** The settings a configuration adds, and what to release once its servers have stopped. */
export interface PreparedConfiguration {
  /** Merged over the settings every measured tessera shares; a top-level section given here replaces the shared one. */
  readonly settings: Record<string, unknown>;
  readonly release: () => Promise<void>;
}

/**
 * One way of running tessera that the bench measures: its storage (and whatever that needs started
 * first), the rows measured with it, and whether the memory figure is taken with it. Every
 * configuration's rows are compared with the same baseline in the same rounds.
 */
export interface ServerConfiguration {
  /** Short, shown beside each of its rows, e.g. `memory`. */
  readonly name: string;
  readonly description: string;
  readonly rows: readonly RowName[];
  /** Whether its rows are held to the targets; the others show, beside them, what their store costs. */
  readonly judged: boolean;
  /** Create live TGTs over HTTP in a fresh server of this configuration and weigh its RSS after GC. */
  readonly memoryFigure: boolean;
  /** Called before its server starts (e.g. to start a database it needs), with what the run's servers share. */
  prepare(fixtures: Fixtures): Promise<PreparedConfiguration>;
}

export const MEMORY_STORE: ServerConfiguration = {
  name: 'memory',
  description: 'the memory store (`storage.type: memory`) in one process',
  rows: ['tgt', 'grant', 'validate', 'jwt', 'x509', 'argon2'],
  judged: true,
  memoryFigure: true,
  prepare: () => Promise.resolve({ settings: { storage: { type: 'memory' } }, release: () => Promise.resolve() }),
};

/**
 * The Redis store on a standalone redis-server started for the run, as the tests start theirs
 * (testkit's RedisServer: Debian's redis-server on a free loopback port, no persistence), on the
 * same machine: its CPU is not in tessera's column, and it shares the cores like the load generator.
 */
export const REDIS_STORE: ServerConfiguration = {
  name: 'redis',
  description: "the Redis store (`storage.type: redis`) on a redis-server started for the run on the same machine (its own CPU not counted in tessera's)",
  rows: ['tgt', 'grant', 'validate'],
  judged: false,
  memoryFigure: false,
  async prepare() {
    if (!redisInstalled()) throw new Error('redis-server is not installed (scripts/install-redis.sh); or leave the Redis rows out with --servers memory');
    const server = await RedisServer.launch();
    return { settings: { storage: { type: 'redis', redis: { url: server.url } } }, release: () => server.dispose() };
  },
};

/**
 * The memory store with the login and oidc modules on, for the OpenID Provider's rows: a process of
 * its own, so the modules those rows need change nothing the other rows measure (the login module
 * hears of every validation). Its port is chosen before it starts, as the issuer names it. Its rows
 * are judged against node-oidc-provider alone with the same settings (LIBRARY_ROWS).
 */
export const OIDC_ON_MEMORY: ServerConfiguration = {
  name: 'oidc',
  description:
    'the memory store with the login and oidc modules on: the code exchange (a fresh code each, made before the run) and userinfo, each against the same request to node-oidc-provider alone with the same settings',
  rows: ['code', 'userinfo'],
  judged: true,
  memoryFigure: false,
  async prepare(fixtures) {
    return { settings: { storage: { type: 'memory' }, ...oidcSettings(await freePort(), fixtures.oidcKeys) }, release: () => Promise.resolve() };
  },
};

/**
 * The memory store with the login and saml2 modules on, for the SAML identity provider's row: a
 * process of its own, as the OIDC rows have, so the modules it needs change nothing the other rows
 * measure. Its public URL names its port, chosen before it starts (the metadata and every assertion
 * carry absolute addresses). The IdP's key set is made for the run by `tessera saml2 generate-keys`
 * into the run's folder (removed at the end, never in the tree), the SP's metadata written beside it.
 * Not judged: the issue states no target for it; it is reported with its CPU per login.
 */
export const SAML2_ON_MEMORY: ServerConfiguration = {
  name: 'saml2',
  description:
    'the memory store with the login and saml2 modules on: an SP-initiated login over HTTP-POST of a browser with a login session (a fresh AuthnRequest each), answered with the signed assertion',
  rows: ['saml'],
  judged: false,
  memoryFigure: false,
  async prepare(fixtures) {
    const dir = join(fixtures.dir, 'saml2-files');
    mkdirSync(dir, { recursive: true });
    const port = await freePort();
    const keyFile = join(dir, 'saml2-keys.json');
    writeFileSync(keyFile, await tesseraCommand(['saml2', 'generate-keys', '--entity-id', `http://127.0.0.1:${port}/cas/idp`]), { mode: 0o600 });
    const metadataFile = join(dir, 'sp-metadata.xml');
    writeFileSync(metadataFile, spMetadata());
    return { settings: { storage: { type: 'memory' }, ...samlSettings(port, { keyFile, spMetadata: metadataFile }) }, release: () => Promise.resolve() };
  },
};

/** What `pnpm bench` measures, in order. */
export const CONFIGURATIONS: readonly ServerConfiguration[] = [MEMORY_STORE, REDIS_STORE, OIDC_ON_MEMORY, SAML2_ON_MEMORY];

/**
 * The configurations `--servers` names (all by default), each with only the rows `--rows` names,
 * plus, in a configuration held to the targets, the rows those rows' targets are taken against
 * (`--rows jwt` measures TGT create too).
 */
export function selectedConfigurations(all: readonly ServerConfiguration[], options: Pick<BenchOptions, 'rows' | 'servers'>): ServerConfiguration[] {
  const unknown = options.servers?.find((name) => !all.some((configuration) => configuration.name === name));
  if (unknown !== undefined) throw new Error(`--servers: no server configuration "${unknown}" (configurations: ${all.map((configuration) => configuration.name).join(', ')})`);
  return all
    .filter((configuration) => options.servers?.includes(configuration.name) ?? true)
    .map((configuration) => {
      const named = configuration.rows.filter((row) => options.rows?.includes(row) ?? true);
      const references = configuration.judged ? referenceRows(named) : [];
      return { ...configuration, rows: configuration.rows.filter((row) => named.includes(row) || references.includes(row)) };
    });
}
