import { execFile } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnNode, stopCleanly, waitFor, type ServerProcess } from './server-process.js';

/**
 * The `tessera` command as built: packages/cli-server/dist/main.js of this workspace (found from the
 * bench's own build, so a test run under the `source` condition starts the build too).
 */
const MAIN = fileURLToPath(new URL('../../../packages/cli-server/dist/main.js', import.meta.url));
const GC_ON_SIGNAL = fileURLToPath(new URL('./gc-on-signal.js', import.meta.url));

/** What a `tessera` command (`node packages/cli-server/dist/main.js ARGS`) prints; rejects, with its stderr, unless it exits 0. */
export function tesseraCommand(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [MAIN, ...args], { env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) =>
      error ? reject(new Error(`tessera ${args.join(' ')} failed: ${stderr}`, { cause: error })) : resolve(stdout),
    );
  });
}

export interface TesseraProcess extends ServerProcess {
  /** Base path of every endpoint, e.g. `/cas`. */
  readonly base: string;
  /** Where Prometheus would scrape it. */
  readonly metricsUrl: string;
  /** The JSON log (its stdout), the audit trail, and its stderr. */
  readonly files: { readonly log: string; readonly audit: string; readonly stderr: string };
}

export interface MemoryReport {
  readonly rss: number;
  readonly heapUsed: number;
}

export interface TesseraStart {
  /** A folder of its own: the config file, the log and the audit trail are written there. */
  readonly dir: string;
  /** The config file's content (written as JSON), given the file the audit trail is to go to. */
  settings(auditFile: string): Record<string, unknown>;
  readonly poolSize: number;
  /** Where it writes a V8 CPU profile when it stops (node --cpu-prof), if anywhere. */
  readonly cpuProfileDir?: string;
  /** The CLI to start, when not this checkout's (another build's, for `pnpm bench:compare --other`). */
  readonly main?: string;
}

/**
 * tessera as an operator runs it: `node packages/cli-server/dist/main.js start --config FILE`, its
 * stdout (the JSON log at the default level) appended to a file, stderr to another. Resolves once
 * the log has the ready line.
 */
export async function startTessera(start: TesseraStart): Promise<TesseraProcess> {
  const profile = start.cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', start.cpuProfileDir];
  return (await launch(start, profile, {})).server;
}

/**
 * The same, with a hook that runs a full GC on request (see gc-on-signal.ts): for the memory
 * figure only, so the rows measure the server exactly as shipped.
 */
export async function startTesseraWithGcHook(start: TesseraStart): Promise<{ server: TesseraProcess; memoryAfterGc: () => Promise<MemoryReport> }> {
  const report = join(start.dir, 'gc-report.json');
  const { server, spawned } = await launch(start, ['--expose-gc', '--import', GC_ON_SIGNAL], { BENCH_GC_REPORT: report });
  const memoryAfterGc = async () => {
    rmSync(report, { force: true });
    spawned.child.kill('SIGUSR2');
    return waitFor(spawned, 'tessera (GC on SIGUSR2)', 120, () => (existsSync(report) ? readReport(report) : undefined), () => '');
  };
  return { server, memoryAfterGc };
}

async function launch(start: TesseraStart, nodeArgs: readonly string[], env: Record<string, string>) {
  mkdirSync(start.dir, { recursive: true });
  const config = join(start.dir, 'tessera.json');
  const files = { log: join(start.dir, 'tessera.log'), audit: join(start.dir, 'audit.log'), stderr: join(start.dir, 'stderr.log') };
  writeFileSync(config, JSON.stringify(start.settings(files.audit), null, 2));
  const log = openSync(files.log, 'a');
  const stderr = openSync(files.stderr, 'a');
  let spawned;
  try {
    spawned = spawnNode(start.main ?? MAIN, ['start', '--config', config], { poolSize: start.poolSize, stdio: ['ignore', log, stderr], nodeArgs, env });
  } finally {
    closeSync(log);
    closeSync(stderr);
  }
  const details = () => `; its stderr:\n${readFileSync(files.stderr, 'utf8')}\nlast log lines:\n${readFileSync(files.log, 'utf8').split('\n').slice(-5).join('\n')}`;
  const ready = await waitFor(spawned, 'tessera', 60, () => readyLine(files.log), details);
  const url = new URL(ready.url);
  const server: TesseraProcess = {
    pid: spawned.pid,
    origin: url.origin,
    base: url.pathname.replace(/\/$/, ''),
    metricsUrl: `${ready.adminUrl}/metrics`,
    files,
    close: () => stopCleanly(spawned, 'tessera', details),
  };
  return { server, spawned };
}

/** The url and adminUrl of the `tessera ready at …` log line, once it is written. */
function readyLine(logFile: string): { url: string; adminUrl: string } | undefined {
  const line = readFileSync(logFile, 'utf8')
    .split('\n')
    .find((text) => text.includes('tessera ready at'));
  return line === undefined ? undefined : (JSON.parse(line) as { url: string; adminUrl: string });
}

function readReport(file: string): MemoryReport | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as MemoryReport;
  } catch {
    return undefined; // written but not complete yet
  }
}
