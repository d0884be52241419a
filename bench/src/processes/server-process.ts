import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { once } from 'node:events';

/** A server the bench started as a process of its own: measured from outside through its pid. */
export interface ServerProcess {
  readonly pid: number;
  /** e.g. `http://127.0.0.1:41234` */
  readonly origin: string;
  /** SIGTERM, then waits for the exit; rejects unless the process stopped cleanly (exit code 0). */
  close(): Promise<void>;
}

export interface SpawnedNode {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string>;
}

/**
 * Node running `script` in a process of its own, with libuv's thread pool at `poolSize` threads
 * (the argon2 row compares processes with equal pools) and without the caller's NODE_OPTIONS.
 */
export function spawnNode(script: string, args: readonly string[], options: { poolSize: number; stdio: StdioOptions; nodeArgs?: readonly string[]; env?: Readonly<Record<string, string>> }): SpawnedNode {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
    env: { ...process.env, NODE_OPTIONS: '', UV_THREADPOOL_SIZE: String(options.poolSize), ...options.env },
    stdio: options.stdio,
  });
  if (child.pid === undefined) throw new Error(`could not start node ${script}`);
  const exited = once(child, 'exit').then(([code, signal]) => (code as number | null) ?? String(signal));
  return { child, pid: child.pid, exited };
}

/** Stops a spawned process with SIGTERM; rejects, naming `what` and `details()`, unless it exits 0. */
export async function stopCleanly(spawned: SpawnedNode, what: string, details: () => string): Promise<void> {
  spawned.child.kill('SIGTERM');
  const code = await spawned.exited;
  if (code !== 0) throw new Error(`${what} did not stop cleanly on SIGTERM (exit ${code})${details()}`);
}

/** Polls `check` every 50 ms until it returns a value; rejects after `seconds` or when the process exits first. */
export async function waitFor<Value>(spawned: SpawnedNode, what: string, seconds: number, check: () => Value | undefined, details: () => string): Promise<Value> {
  const deadline = Date.now() + seconds * 1000;
  let exit: number | string | undefined;
  void spawned.exited.then((code) => (exit = code));
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (exit !== undefined) throw new Error(`${what} exited (${exit}) before it was ready${details()}`);
    if (Date.now() > deadline) {
      spawned.child.kill('SIGKILL');
      throw new Error(`${what} was not ready within ${seconds} s${details()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the process has written so far on `name`. */
export function collected(spawned: SpawnedNode, name: 'stdout' | 'stderr'): () => string {
  let text = '';
  spawned.child[name]?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

/** Waits for the origin `what` prints first on `printed`; `stderr` explains a failure. */
export async function announced(spawned: SpawnedNode, what: string, printed: () => string, stderr: () => string): Promise<ServerProcess> {
  const details = () => (stderr() ? `:\n${stderr()}` : '');
  const origin = await waitFor(spawned, what, 30, () => /^(http:\/\/\S+)\n/.exec(printed())?.[1], details);
  return { pid: spawned.pid, origin, close: () => stopCleanly(spawned, what, details) };
}
