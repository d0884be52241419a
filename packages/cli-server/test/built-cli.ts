import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** The built CLI (`tsc -b` output): a spawn costs a Node start, where running the sources through tsx compiles them each time. */
const MAIN = join(ROOT, 'packages/cli-server/dist/main.js');
/** A CLI process still running after this long hangs (its test has timed out by then): it is killed, so the run does not wait on it. */
const HANG_MS = 90_000;

/** Starts the built CLI as an operator runs `node dist/main.js`, in the repository's root, with the environment given. */
export function spawnBuiltCli(args: readonly string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "tsc -b" (pnpm test does) before these tests`);
  return spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: HANG_MS, killSignal: 'SIGKILL' });
}
