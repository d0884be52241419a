import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What each client needs on this machine; `scripts/install-cas-clients.sh` installs all of it. */
export type Probe = readonly [command: string, ...args: string[]];

/**
 * Marks the calling suite pending, with one line saying why (and the script that installs what is
 * missing), unless every probe command exits 0. Call from a `before` hook.
 */
export function skipUnlessInstalled(context: Mocha.Context, client: string, probes: readonly Probe[], installer = 'scripts/install-cas-clients.sh'): void {
  const failed = probes.find(([command, ...args]) => spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 }).status !== 0);
  if (failed === undefined) return;
  process.stdout.write(`    skipping ${client}: \`${failed.join(' ')}\` failed; run ${installer}\n`);
  context.skip();
}

export interface TempDir {
  readonly path: string;
  remove(): Promise<void>;
}

export async function makeTempDir(prefix: string): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), `tessera-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export interface ProgramResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program to its end (killed after `timeoutMs`), whatever its exit code; in `cwd` when given. */
export function runProgram(command: string, args: readonly string[], timeoutMs = 15_000, cwd?: string): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, encoding: 'utf8', ...(cwd !== undefined && { cwd }) }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(new Error(`${command} failed: ${error.message}\n${stderr}`));
      else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

export interface ChildServer {
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  readonly port: number;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly readyTimeoutMs?: number;
  /** In a process group of its own: Apache's prefork MPM, stopping, signals its whole group, which would end the test run. */
  readonly ownProcessGroup?: boolean;
}

/** Spawns a server process and resolves once it accepts TCP connections on 127.0.0.1:`port`. */
export async function startChildServer(command: string, args: readonly string[], options: ChildServerOptions): Promise<ChildServer> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.ownProcessGroup ?? false });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    // A failed spawn (e.g. ENOENT) reports here, and may never report 'exit'.
    child.once('error', (error) => {
      output += `${error.message}\n`;
      resolve();
    });
  });
  let running = true;
  void exited.then(() => (running = false));

  const stop = async (): Promise<void> => {
    if (!running) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 10_000);
  while (!(await accepts(options.port))) {
    if (!running || Date.now() > deadline) {
      await stop();
      throw new Error(`${command} did not listen on 127.0.0.1:${options.port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { output: () => output, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
