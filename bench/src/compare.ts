/* eslint-disable no-console -- a command-line tool whose output is its report */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@tessera/testkit';
import { drive } from './child.js';
import { COMPARE_USAGE, checkoutMain, compareOptions, quartiles, sliceOrder, type CompareOptions, type Quartiles } from './compare-options.js';
import { OIDC_ON_MEMORY } from './configurations.js';
import { makeFixtures, oidcReferenceSettings, type Fixtures } from './fixtures.js';
import type { LoadSpec } from './load-spec.js';
import { mirrorDifferences, refuseUnlessMirrored } from './oidc-mirror.js';
import { mintCodes } from './measure.js';
import { openOidc, type OidcBrowser } from './oidc-session.js';
import { startOidcReference } from './processes/oidc-reference.js';
import { cpuMicros, mainThreadCpuMicros } from './processes/proc.js';
import type { ServerProcess } from './processes/server-process.js';
import { startTessera } from './processes/tessera-process.js';
import { rowLoad, type TesseraTarget } from './rows.js';

/**
 * `pnpm bench:compare`: what `pnpm bench` cannot resolve on a machine whose speed drifts by more than
 * a change is worth. Every server is measured in many short slices of a fixed number of requests,
 * one slice per server in each round, their order reversed every other round, so drift falls on all
 * of them alike; a server's slice is compared with this checkout's slice of the same round. Codes are
 * minted for the whole run before the first slice (minting between slices leaves each slice a
 * different heap to collect). What it reports is server CPU per request, the whole process's and its
 * main thread's: the RS256 signatures run on libuv's pool, so the main thread is where JavaScript differs.
 */

interface Measured {
  readonly name: string;
  readonly server: ServerProcess;
  readonly target: TesseraTarget;
  readonly browser: OidcBrowser;
  codes: readonly string[];
}

interface Slice {
  /** Server CPU µs per request: every thread, and the main thread alone. */
  readonly cpu: number;
  readonly main: number;
}

const argv = process.argv.slice(2);
let options: CompareOptions;
try {
  options = compareOptions(argv);
} catch (error) {
  console.error(`pnpm bench:compare: ${(error as Error).message}\n\n${COMPARE_USAGE}`);
  process.exit(2);
}
const say = (line: string) => console.error(`[compare] ${line}`);

const fixtures = await makeFixtures();
/** Every server started, stopped at the end whatever happened. */
const started: ServerProcess[] = [];
const servers: Measured[] = [];
try {
  await run(options, fixtures);
} catch (error) {
  console.error(`pnpm bench:compare: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(started.map((server) => server.close().catch(() => undefined)));
  fixtures.remove();
}

async function run(options: CompareOptions, fixtures: Fixtures): Promise<void> {
  const tesseras: { readonly name: string; readonly main?: string }[] = [{ name: 'this' }, ...(options.other !== undefined ? [{ name: 'other', main: checkoutMain(options.other) }] : [])];
  for (const { name, main } of tesseras) {
    const prepared = await OIDC_ON_MEMORY.prepare(fixtures);
    const tessera = await startTessera({ dir: join(fixtures.dir, name), settings: (audit) => ({ ...fixtures.settings(audit), ...prepared.settings }), poolSize: options.poolSize, ...(main !== undefined && { main }) });
    started.push(tessera);
    servers.push(await opened(name, tessera, { origin: tessera.origin, base: tessera.base, x509Login: '' }));
    say(`tessera (${name}) started by its CLI, pid ${tessera.pid}`);
  }
  const dir = join(fixtures.dir, 'library');
  mkdirSync(dir, { recursive: true });
  const reference = await startOidcReference(oidcReferenceSettings(await freePort(), fixtures.oidcKeys), dir, options.poolSize);
  started.push(reference);
  const library = await opened('library', reference, { origin: reference.origin, base: servers[0]!.target.base, x509Login: '' });
  servers.push(library);
  refuseUnlessMirrored(OIDC_ON_MEMORY.name, await mirrorDifferences({ target: servers[0]!.target, token: servers[0]!.browser.token }, { target: library.target, token: library.browser.token }));
  say(`node-oidc-provider alone with tessera's settings started, pid ${reference.pid}`);

  if (options.row === 'code') {
    for (const server of servers) {
      server.codes = await mintCodes(server.target, server.browser.cookie, options.amount * (options.slices + 1));
      say(`${server.codes.length} codes minted at ${server.name}`);
    }
  }
  for (const server of servers) await measuredSlice(server, options);
  const slices: Slice[][] = servers.map(() => []);
  for (let round = 0; round < options.slices; round++) {
    for (const index of sliceOrder(servers.length, round)) slices[index]!.push(await measuredSlice(servers[index]!, options));
    console.log(`slice ${round + 1}: ${servers.map((server, index) => `${server.name} ${slices[index]![round]!.cpu.toFixed(0)} µs (main ${slices[index]![round]!.main.toFixed(0)})`).join('  ')}`);
  }
  console.log(`\n${options.row === 'code' ? 'POST /oidc/token, a fresh code each' : 'GET /oidc/me'}: ${options.slices} slices of ${options.amount} requests, ${options.connections} connections`);
  console.log('server CPU µs per request, median (q1–q3): every thread; main thread');
  for (const [index, server] of servers.entries()) {
    console.log(`  ${server.name.padEnd(8)} ${spread(quartiles(slices[index]!.map((slice) => slice.cpu)), 0)}; ${spread(quartiles(slices[index]!.map((slice) => slice.main)), 0)}`);
  }
  console.log("each server's over this checkout's, slice by slice, median (q1–q3): every thread; main thread");
  for (const [index, server] of servers.entries()) {
    if (index === 0) continue;
    const ratios = (pick: (slice: Slice) => number) => quartiles(slices[index]!.map((slice, round) => pick(slice) / pick(slices[0]![round]!)));
    console.log(`  ${server.name.padEnd(8)} ${spread(ratios((slice) => slice.cpu), 3)}; ${spread(ratios((slice) => slice.main), 3)}`);
  }
}

/** A server with a browser logged in once to its provider. */
async function opened(name: string, server: ServerProcess, target: TesseraTarget): Promise<Measured> {
  return { name, server, target, browser: await openOidc(target), codes: [] };
}

/** One slice of `amount` requests at the server, and its CPU per request; its codes are used up. */
async function measuredSlice(server: Measured, options: CompareOptions): Promise<Slice> {
  const codes = server.codes.slice(0, options.amount);
  server.codes = server.codes.slice(options.amount);
  const pools = { tgts: [], sts: [], codes, accessToken: server.browser.accessToken };
  const load: LoadSpec = { ...(rowLoad(options.row, server.target, pools, options.connections, 3600) as LoadSpec), amount: options.amount };
  const { pid } = server.server;
  const [cpuBefore, mainBefore] = [cpuMicros(pid), mainThreadCpuMicros(pid)];
  const outcome = await drive(load);
  const [cpu, main] = [cpuMicros(pid) - cpuBefore, mainThreadCpuMicros(pid) - mainBefore];
  // A slice with a failed request measured something else (an expired or replayed code revokes its grant).
  if (outcome.errors > 0 || outcome.non2xx > 0 || outcome.responses === 0) {
    throw new Error(`${server.name}: ${outcome.errors} errors and ${outcome.non2xx} non-2xx answers in a slice of ${options.amount} requests`);
  }
  return { cpu: cpu / outcome.responses, main: main / outcome.responses };
}

function spread({ q1, median, q3 }: Quartiles, digits: number): string {
  return `${median.toFixed(digits)} (${q1.toFixed(digits)}–${q3.toFixed(digits)})`;
}
