import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { guardOutput } from '../support/log-canary.js';

/** One line of the audit trail, parsed. */
export type AuditLine = Record<string, unknown>;

export function parsed(lines: readonly string[]): AuditLine[] {
  return lines.map((line) => JSON.parse(line) as AuditLine);
}

/** Reads the lines an action adds to `trail`: call it, act, then call what it returned. */
export function linesAfter(trail: readonly string[]): () => AuditLine[] {
  const seen = trail.length;
  return () => parsed(trail.slice(seen));
}

/** The fields every record has: when, where from, which request, and which node wrote it. */
export function expectEnvelope(line: AuditLine | undefined, address = '127.0.0.1'): void {
  expect(line, 'an audit line').to.not.equal(undefined);
  expect(line!['time']).to.be.a('string').and.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(Math.abs(Date.parse(line!['time'] as string) - Date.now())).to.be.below(60_000);
  expect(line!['address']).to.equal(address);
  expect(line!['requestId']).to.be.a('string').with.length.above(8);
  expect(line!['node']).to.equal('e2e');
}

/** The part of a ticket id that makes it a bearer secret: what no audit line may contain. */
export function secretPart(id: string): string {
  return id.replace(/^(TGT|ST)-\d+-/, '').replace(/-e2e$/, '');
}

const MAIN = fileURLToPath(new URL('../../packages/cli-server/dist/main.js', import.meta.url));

export interface Built {
  readonly child: ChildProcess;
  readonly url: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the built server as an operator would, its stdout and stderr kept apart, and waits for its ready line. */
export function startBuilt(args: string[]): Promise<Built> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "tsc -b" (pnpm test does) before these tests`);
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, NODE_OPTIONS: '' } });
  const out = { stdout: '', stderr: '' };
  guardOutput(`stdout and stderr of tessera ${args.join(' ')}`, () => out.stdout + out.stderr);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 15 s:\n${out.stdout}${out.stderr}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out.stdout += chunk.toString();
      const ready = /tessera ready at (http:\/\/[^"\s]+)/.exec(out.stdout);
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
