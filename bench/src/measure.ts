import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { drive } from './child.js';
import type { ServerConfiguration } from './configurations.js';
import { freePort } from '@tessera/testkit';
import { ARGON2_PASSWORD, CHEAP_LOGIN, oidcReferenceSettings, type Fixtures } from './fixtures.js';
import type { LoadOutcome, LoadSpec, SamlLoginSpec } from './load-spec.js';
import { TEXT_FORM } from './load-spec.js';
import { scrapeSample } from './metrics.js';
import { mirrorDifferences, refuseUnlessMirrored } from './oidc-mirror.js';
import { codesOf, openOidc, type OidcBrowser } from './oidc-session.js';
import type { BenchOptions } from './options.js';
import { rawArgon2 } from './processes/argon2-raw.js';
import { rawWebAuthn } from './processes/webauthn-raw.js';
import { startBaseline, startFloor } from './processes/koa-process.js';
import { startOidcReference } from './processes/oidc-reference.js';
import { cpuMicros } from './processes/proc.js';
import type { ServerProcess } from './processes/server-process.js';
import { startTessera, startTesseraWithGcHook, type TesseraProcess } from './processes/tessera-process.js';
import { idpFromMetadata, openSamlSession, verifiedProfile, type SamlIdp } from './saml-sp.js';
import type { BenchResults, Measured, MemoryFigure, RawArgon2Run, RoundRun } from './results.js';
import { baselineLoad, FLOOR_ROWS, floorLoad, LIBRARY_ROWS, mintCodesLoad, mintLoad, ROWS, rowLoad, type LibraryRow, type Row, type RowName, type TesseraTarget } from './rows.js';

const TGT_POOL = 1000;

type Say = (line: string) => void;

interface Running {
  readonly configuration: ServerConfiguration;
  readonly release: () => Promise<void>;
  readonly tessera: TesseraProcess;
  readonly target: TesseraTarget;
  readonly rows: readonly Row[];
  readonly tgts: readonly string[];
  /** The best validation rate seen so far, to size the next pool of fresh STs. */
  validateRate: number;
  /** With the OIDC rows: the cookies of a browser logged in for the bench's client, and an access token of it. */
  readonly oidc?: OidcBrowser;
  /** The best code exchange rate seen so far, to size the next pool of fresh codes. */
  codeRate: number;
  /** With the SAML row: browsers logged in through the SP (their cookies, one per connection), and the IdP as its metadata names it. */
  readonly saml?: { readonly sessions: readonly string[]; readonly idp: SamlIdp };
  /** The best SAML login rate seen so far, to size the next run's batch of AuthnRequests. */
  samlRate: number;
  /** With the OIDC rows: their reference, node-oidc-provider alone with the same settings, and its browser. */
  readonly library?: { readonly server: ServerProcess; readonly target: TesseraTarget; readonly oidc: OidcBrowser; codeRate: number };
}

/**
 * The baseline, the floors of the rows measured (in one process) and one tessera per configuration,
 * each in a process of its own, then: a warm-up of every row, and `rounds` rounds of every row in
 * turn, the baseline first in each round and the floors right after it, so a row's ratio to its
 * reference (its floor, the TGT row, the raw argon2 rate) compares loads of one round, a minute or
 * two apart at most. The argon2 row is a pair in every round: the raw verify rate, then the row.
 * Then the memory figure, in fresh servers.
 */
export async function measure(options: BenchOptions, configurations: readonly ServerConfiguration[], fixtures: Fixtures, say: Say): Promise<BenchResults> {
  const baselineRuns: RoundRun[] = [];
  const rowRuns = new Map<string, RoundRun[]>();
  const rawArgon2Runs: RawArgon2Run[] = [];
  const rawWebAuthnRuns: RawArgon2Run[] = [];
  const floorRows = FLOOR_ROWS.filter((floor) => configurations.some((configuration) => configuration.rows.includes(floor.name)));
  const floorRuns = new Map<RowName, RoundRun[]>(floorRows.map((floor) => [floor.name, []]));
  const libraryRows = LIBRARY_ROWS.filter((reference) => configurations.some((configuration) => configuration.rows.includes(reference.name)));
  const libraryRuns = new Map<RowName, RoundRun[]>(libraryRows.map((reference) => [reference.name, []]));
  const baseline = await startBaseline(options.poolSize);
  let floor: ServerProcess | undefined;
  const running: Running[] = [];
  try {
    if (floorRows.length > 0) {
      const floorDir = join(fixtures.dir, 'floor');
      mkdirSync(floorDir, { recursive: true });
      floor = await startFloor(options.poolSize, floorDir);
    }
    // A configuration `--rows` left no row of is not started (its modules, keys and pools would be made for nothing).
    for (const configuration of configurations.filter((candidate) => candidate.rows.length > 0)) running.push(await startConfiguration(configuration, options, fixtures, say));
    const seconds = (warmup: boolean) => (warmup ? options.warmup : options.duration);

    // `round` is undefined in the warm-up, whose runs are not kept.
    const runRound = async (round: number | undefined, label: string) => {
      const warmup = round === undefined;
      const base = await measured(baseline.pid, baselineLoad(baseline.origin, options.connections, seconds(warmup)));
      if (!warmup) baselineRuns.push({ round, measured: base });
      say(`${label} baseline: ${describe(base)}`);
      for (const floorRow of floorRows) {
        if (!floor) break;
        const outcome = await measured(floor.pid, floorLoad(floorRow.name, floor.origin, options.connections, seconds(warmup)));
        if (!warmup) floorRuns.get(floorRow.name)?.push({ round, measured: outcome });
        say(`${label} ${floorRow.short}: ${describe(outcome)}`);
      }
      for (const server of running) {
        for (const row of server.rows) {
          let sts: readonly string[] = [];
          if (row.name === 'validate') {
            const wanted = Math.ceil(1.5 * Math.max(base.okPerSecond, server.validateRate) * seconds(warmup)) + 1000;
            sts = await mint(server.target, 'sts', wanted, server.tgts);
          }
          // A code redeemed twice revokes its grant, and so every code and token of the browser's session:
          // each pool is sized on twice the best code exchange rate either server has shown (until one has
          // run, on the baseline's rate, which bounds it).
          const library = server.library;
          const bestCodeRate = Math.max(server.codeRate, library?.codeRate ?? 0);
          const codesWanted = Math.ceil((bestCodeRate > 0 ? 2 * bestCodeRate : 1.5 * base.okPerSecond) * seconds(warmup)) + 500;
          let codes: readonly string[] = [];
          if (row.name === 'code' && server.oidc) codes = await mintCodes(server.target, server.oidc.cookie, codesWanted);
          const libraryRow = library && LIBRARY_ROWS.find((reference) => reference.name === row.name);
          // The reference beside the row, on codes of its own minted just before it runs.
          const measureLibrary = async () => {
            if (!library || !libraryRow) return;
            const libraryCodes = row.name === 'code' ? await mintCodes(library.target, library.oidc.cookie, codesWanted) : [];
            const libraryPools = { tgts: [], sts: [], codes: libraryCodes, accessToken: library.oidc.accessToken };
            const outcome = await measured(library.server.pid, rowLoad(row.name, library.target, libraryPools, options.connections, seconds(warmup)));
            if (row.name === 'code') library.codeRate = Math.max(library.codeRate, outcome.okPerSecond);
            if (!warmup) libraryRuns.get(row.name)?.push({ round, measured: outcome });
            say(`${label} ${libraryRow.short}: ${describe(outcome)}`);
          };
          // Right before the row in odd rounds (and the warm-up), right after it in even ones: a machine
          // whose speed drifts within a round favours neither side over the run.
          const libraryFirst = round === undefined || round % 2 === 1;
          if (libraryFirst) await measureLibrary();
          if (row.name === 'argon2') {
            const raw = await rawArgon2(fixtures.argon2Phc, ARGON2_PASSWORD, { seconds: seconds(warmup), inFlight: options.connections, poolSize: options.poolSize });
            if (!warmup) rawArgon2Runs.push({ configuration: server.configuration.name, round, ...raw });
            say(`${label} raw argon2id verify: ${raw.perSecond.toFixed(1)}/s, ${raw.cpuMicrosPerVerify.toFixed(0)} µs CPU each`);
            const webauthn = await rawWebAuthn({ seconds: seconds(warmup), inFlight: options.connections, poolSize: options.poolSize });
            if (!warmup) rawWebAuthnRuns.push({ configuration: server.configuration.name, round, ...webauthn });
            say(`${label} WebAuthn assertion verify: ${webauthn.perSecond.toFixed(1)}/s, ${webauthn.cpuMicrosPerVerify.toFixed(0)} µs CPU each`);
          }
          // Half again what the best SAML rate so far would use (until one has run, a batch the load generator
          // makes anew each time half of it is used, so no rate runs it dry).
          const samlBatch = Math.ceil(1.5 * server.samlRate * seconds(warmup)) + 1000;
          const saml = server.saml && { sessions: server.saml.sessions, batch: samlBatch };
          const pools = { tgts: server.tgts, sts, codes, accessToken: server.oidc?.accessToken, saml };
          const inspect = row.name === 'saml' && server.saml ? samlInspection(server.saml.idp, `${label} saml (${server.configuration.name})`, say) : undefined;
          const outcome = await measured(server.tessera.pid, rowLoad(row.name, server.target, pools, options.connections, seconds(warmup)), inspect);
          if (row.name === 'saml') server.samlRate = Math.max(server.samlRate, outcome.okPerSecond);
          if (row.name === 'validate') server.validateRate = Math.max(server.validateRate, outcome.okPerSecond);
          if (row.name === 'code') server.codeRate = Math.max(server.codeRate, outcome.okPerSecond);
          if (!warmup) rowRuns.set(key(server, row), [...(rowRuns.get(key(server, row)) ?? []), { round, measured: outcome }]);
          say(`${label} ${row.name} (${server.configuration.name}): ${describe(outcome)}`);
          if (!libraryFirst) await measureLibrary();
        }
      }
    };

    if (options.warmup > 0) await runRound(undefined, 'warm-up');
    for (let round = 1; round <= options.rounds; round += 1) await runRound(round, `round ${round}/${options.rounds}`);
  } finally {
    await Promise.allSettled([
      baseline.close(),
      ...(floor ? [floor.close()] : []),
      ...running.flatMap((server) => [server.tessera.close(), ...(server.library ? [server.library.server.close()] : [])]),
    ]);
    await Promise.allSettled(running.map((server) => server.release()));
  }

  const memory: MemoryFigure[] = [];
  for (const configuration of configurations.filter((candidate) => candidate.memoryFigure && options.tickets > 0)) {
    memory.push(await memoryFigure(configuration, options, fixtures, say));
  }
  const rows = running.flatMap((server) => server.rows.map((row) => ({ configuration: server.configuration.name, row, runs: rowRuns.get(key(server, row)) ?? [] })));
  const floors = floorRows.map((row) => ({ row, runs: floorRuns.get(row.name) ?? [] }));
  const library = libraryRows.map((row: LibraryRow) => ({ row, runs: libraryRuns.get(row.name) ?? [] }));
  return { baseline: baselineRuns, floors, library, rows, rawArgon2: rawArgon2Runs, rawWebAuthn: rawWebAuthnRuns, memory };
}

function key(server: Running, row: Row): string {
  return `${server.configuration.name}/${row.name}`;
}

async function startConfiguration(configuration: ServerConfiguration, options: BenchOptions, fixtures: Fixtures, say: Say): Promise<Running> {
  const prepared = await configuration.prepare(fixtures);
  let tessera: TesseraProcess | undefined;
  let reference: ServerProcess | undefined;
  try {
    tessera = await startTessera({
      dir: join(fixtures.dir, configuration.name),
      settings: (audit) => ({ ...fixtures.settings(audit), ...prepared.settings }),
      poolSize: options.poolSize,
      ...(options.cpuProfileDir !== undefined && { cpuProfileDir: options.cpuProfileDir }),
    });
    say(`tessera (${configuration.name}) started by its CLI, pid ${tessera.pid}, log ${tessera.files.log}`);
    const target = { origin: tessera.origin, base: tessera.base, x509Login: fixtures.x509Login };
    const rows = ROWS.filter((row) => configuration.rows.includes(row.name)).map(({ target, ...row }): Row => (configuration.judged && target ? { ...row, target } : row));
    const oidc = rows.some((row) => row.name === 'code' || row.name === 'userinfo') ? await openOidc(target) : undefined;
    let library: Running['library'];
    if (oidc && rows.some((row) => row.target?.against === 'library')) {
      const dir = join(fixtures.dir, `${configuration.name}-library`);
      mkdirSync(dir, { recursive: true });
      reference = await startOidcReference(oidcReferenceSettings(await freePort(), fixtures.oidcKeys), dir, options.poolSize, options.cpuProfileDir);
      say(`node-oidc-provider alone with the settings of tessera (${configuration.name}) started, pid ${reference.pid}`);
      const libraryTarget = { origin: reference.origin, base: target.base, x509Login: '' };
      const libraryOidc = await openOidc(libraryTarget);
      const differences = await mirrorDifferences({ target, token: oidc.token }, { target: libraryTarget, token: libraryOidc.token });
      refuseUnlessMirrored(configuration.name, differences);
      library = { server: reference, target: libraryTarget, oidc: libraryOidc, codeRate: 0 };
    }
    const saml = rows.some((row) => row.name === 'saml') ? await openSaml(target, options.connections) : undefined;
    if (saml) say(`${saml.sessions.length} browsers logged in to the SAML SP of tessera (${configuration.name}), the first Response verified against the IdP metadata`);
    return { configuration, release: prepared.release, tessera, target, rows, tgts: await mint(target, 'tgts', TGT_POOL, []), validateRate: 0, ...(oidc && { oidc }), codeRate: 0, ...(library && { library }), ...(saml && { saml }), samlRate: 0 };
  } catch (error) {
    await tessera?.close().catch(() => undefined);
    await reference?.close().catch(() => undefined);
    await prepared.release();
    throw error;
  }
}

/**
 * Runs a load against the server process `pid`, with that process's CPU time over it per response
 * (per login for the SAML row); `inspect` sees what it collected first, and may refuse the run.
 */
async function measured(pid: number, spec: LoadSpec | SamlLoginSpec, inspect?: (outcome: LoadOutcome) => Promise<void>): Promise<Measured> {
  const before = cpuMicros(pid);
  const loaded = await drive(spec);
  const cpu = cpuMicros(pid) - before;
  await inspect?.(loaded);
  const { collected: _collected, ...outcome } = loaded;
  return { ...outcome, cpuMicrosPerResponse: cpu / Math.max(1, outcome.responses) };
}

/** `count` browsers logged in through the SAML SP (one per connection), the IdP read from its metadata, the first login's Response verified as the SP does. */
async function openSaml(target: TesseraTarget, count: number): Promise<{ sessions: string[]; idp: SamlIdp }> {
  const idp = await idpFromMetadata(`${target.origin}${target.base}/idp/metadata`);
  const logins = [];
  // A few at a time: each is a password login and an RSA signature.
  for (let at = 0; at < count; at += 10) logins.push(...(await Promise.all(Array.from({ length: Math.min(10, count - at) }, () => openSamlSession(target.origin, target.base)))));
  await verifiedProfile(logins[0]!.samlResponse, idp);
  return { sessions: logins.map((login) => login.cookie), idp };
}

/**
 * What is checked of a SAML run beyond the load generator's check of every answer: a sample of its
 * Responses verified by an SP library against the IdP metadata (the assertion's signature, issuer,
 * audience, times), and none made by the load generator while it measured; its failures said.
 */
function samlInspection(idp: SamlIdp, label: string, say: Say): (outcome: LoadOutcome) => Promise<void> {
  return async (outcome) => {
    if (outcome.problems !== undefined && outcome.problems.length > 0) say(`${label}: failed logins: ${outcome.problems.join('; ')}`);
    if (outcome.okPerSecond > 0 && outcome.collected.length === 0) throw new Error(`${label}: successful logins, but no Response handed back to verify`);
    for (const samlResponse of outcome.collected) {
      try {
        await verifiedProfile(samlResponse, idp);
      } catch (error) {
        throw new Error(`${label}: a Response the load generator took for a success does not verify as the SP checks it: ${(error as Error).message}`, { cause: error });
      }
    }
    const pool = outcome.pool;
    if (pool !== undefined) say(`${label}: ${outcome.collected.length} Responses verified with the metadata's certificate; AuthnRequest pool refilled ${pool.refills} times${pool.madeOnTheSpot > 0 ? `, ${pool.madeOnTheSpot} made on the spot (none ready)` : ''}`);
  };
}

async function mint(target: TesseraTarget, what: 'tgts' | 'sts', count: number, tgts: readonly string[]): Promise<readonly string[]> {
  return inPasses(`minting ${what}`, count, async (wanted) => {
    const outcome = await drive(mintLoad(target, what, wanted, tgts));
    return { minted: outcome.collected, errors: outcome.errors, refused: outcome.non2xx };
  });
}

/** How many times a pool's shortfall is minted again before the run gives up. */
const MINT_PASSES = 3;

/**
 * `count` items of a pool, minted in passes: what a pass fell short by (requests that timed out on a
 * machine busy with other work) is asked again in the next, up to MINT_PASSES; then the run stops
 * naming what was missing.
 */
async function inPasses(what: string, count: number, pass: (wanted: number) => Promise<{ readonly minted: readonly string[]; readonly errors: number; readonly refused: number }>): Promise<readonly string[]> {
  const pool: string[] = [];
  let shortfall = '';
  for (let attempt = 0; attempt < MINT_PASSES && pool.length < count; attempt++) {
    const { minted, errors, refused } = await pass(count - pool.length);
    pool.push(...minted);
    shortfall = `${errors} errors, ${refused} non-2xx or unusable answers in the last pass`;
  }
  if (pool.length < count) throw new Error(`${what}: wanted ${count}, got ${pool.length} after ${MINT_PASSES} passes (${shortfall})`);
  return pool.slice(0, count);
}

/** `count` fresh authorization codes of the bench's client, each made by an authorization request on the browser's session. */
export async function mintCodes(target: TesseraTarget, cookie: string, count: number): Promise<readonly string[]> {
  return inPasses('minting authorization codes', count, async (wanted) => {
    const outcome = await drive(mintCodesLoad(target, cookie, wanted));
    const codes = codesOf(outcome.collected);
    return { minted: codes, errors: outcome.errors, refused: outcome.responses - codes.length };
  });
}

/** `options.tickets` cheap logins over HTTP into a fresh server, then its RSS after a full GC. */
async function memoryFigure(configuration: ServerConfiguration, options: BenchOptions, fixtures: Fixtures, say: Say): Promise<MemoryFigure> {
  say(`memory figure (${configuration.name}): ${options.tickets} TGTs over HTTP into a fresh tessera`);
  const prepared = await configuration.prepare(fixtures);
  try {
    const dir = join(fixtures.dir, `${configuration.name}-memory`);
    const { server, memoryAfterGc } = await startTesseraWithGcHook({ dir, settings: (audit) => ({ ...fixtures.settings(audit), ...prepared.settings }), poolSize: options.poolSize });
    try {
      const rssBeforeBytes = (await memoryAfterGc()).rss;
      const spec: LoadSpec = { kind: 'request', origin: server.origin, connections: options.connections, duration: 24 * 3600, amount: options.tickets, method: 'POST', paths: [`${server.base}/v1/tickets`], body: CHEAP_LOGIN, headers: TEXT_FORM };
      const outcome = await drive(spec);
      if (outcome.errors > 0 || outcome.non2xx > 0) throw new Error(`creating TGTs for the memory figure: ${outcome.errors} errors, ${outcome.non2xx} non-2xx`);
      const liveTgts = await scrapeSample(server.metricsUrl, 'tessera_tgts_live');
      const after = await memoryAfterGc();
      return { configuration: configuration.name, tickets: options.tickets, liveTgts, seconds: outcome.seconds, rssBeforeBytes, rssBytes: after.rss, heapUsedBytes: after.heapUsed };
    } finally {
      await server.close();
    }
  } finally {
    await prepared.release();
  }
}

function describe(outcome: Measured): string {
  return `${outcome.okPerSecond.toFixed(0)} 2xx/s, p99 ${outcome.p99} ms, ${outcome.cpuMicrosPerResponse.toFixed(0)} µs CPU/req, errors ${outcome.errors}, non-2xx ${outcome.non2xx}`;
}
