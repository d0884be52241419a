import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** Where and with what the numbers were taken, for docs/benchmarks.md. */
export function describeEnvironment(argv: readonly string[]): string {
  const versions = ['autocannon', 'koa', '@koa/router', 'koa-body'].map((name) => `${name} ${packageVersion(name)}`);
  return [
    `date: ${new Date().toISOString()}`,
    `command: pnpm bench ${argv.join(' ')}`.trimEnd(),
    `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, load average ${loadAverage()}`,
    `node ${process.version}, ${versions.join(', ')}, tessera ${gitRevision()}`,
  ].join('\n');
}

export function loadAverage(): string {
  return loadavg().map((load) => load.toFixed(2)).join(' ');
}

/** Read from the manifest on disk: not every package exports its package.json. */
function packageVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

function gitRevision(): string {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
  } catch {
    return '(no git)';
  }
}
