import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardOutput } from './log-canary.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'packages/cli-server/dist/main.js');

/** Runs the built CLI as an operator would, to its end; its exit code and output. */
export function runTessera(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NODE_OPTIONS: '', ...env } });
  guardOutput(`output of tessera ${args.join(' ')}`, () => `${result.stdout}${result.stderr}`);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface Built {
  readonly child: ChildProcess;
  readonly url: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the built server as an operator would, its stdout and stderr kept apart, and waits for its
 * ready line. `cwd`: where it runs (and writes the files it writes by itself, such as key files).
 */
export function startBuilt(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Built> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "tsc -b" (pnpm test does) before these tests`);
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, NODE_OPTIONS: '', ...env }, ...(cwd === undefined ? {} : { cwd }) });
  const out = { stdout: '', stderr: '' };
  guardOutput(`stdout and stderr of tessera ${args.join(' ')}`, () => out.stdout + out.stderr);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 15 s:\n${out.stdout}${out.stderr}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out.stdout += chunk.toString();
      const ready = /tessera ready at (https?:\/\/[^"\s]+)/.exec(out.stdout);
      if (!ready) return;
      clearTimeout(timer);
      const stop = () => (child.kill('SIGTERM'), exited);
      resolve({ child, url: ready[1]!, stdout: () => out.stdout, stderr: () => out.stderr, stop });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${out.stdout}${out.stderr}`));
    });
  });
}
