import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** Where and with what the numbers were taken. */
export interface Environment {
  readonly date: string;
  readonly command: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  /** `name version` of the load generator, the baseline's stack and tessera's heaviest dependencies. */
  readonly versions: readonly string[];
  readonly commit: string;
  readonly loadAverage: string;
}

/** Whose node_modules hold each dependency named in the report. */
const DEPENDENCIES: readonly (readonly [folder: string, names: readonly string[]])[] = [
  ['bench', ['autocannon', 'koa', '@koa/router', 'koa-body', 'oidc-provider']],
  ['packages/adapter-koa', ['zod', 'oidc-provider']],
  ['packages/cli-server', ['pino', 'prom-client']],
  ['packages/core', ['jose', '@node-rs/argon2', 'pkijs', '@simplewebauthn/server']],
];

export function describeEnvironment(argv: readonly string[]): Environment {
  return {
    date: new Date().toISOString(),
    command: `pnpm bench ${argv.filter((arg) => arg !== '--').join(' ')}`.trimEnd(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: availableParallelism(),
    memoryGiB: totalmem() / 2 ** 30,
    node: process.version,
    versions: DEPENDENCIES.flatMap(([folder, names]) => names.map((name) => `${name} ${packageVersion(folder, name)}`)).filter((entry, index, all) => all.indexOf(entry) === index),
    commit: gitRevision(),
    loadAverage: loadAverage(),
  };
}

export function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}

export function environmentLines(environment: Environment): string[] {
  return [
    `date: ${environment.date}`,
    `command: ${environment.command}`,
    `machine: ${environment.cpu}, ${environment.cores} cores, ${environment.memoryGiB.toFixed(1)} GiB memory; load average ${environment.loadAverage} at the start`,
    `node ${environment.node}; ${environment.versions.join(', ')}`,
    `tessera at ${environment.commit}`,
  ];
}

/** Read from the manifest on disk: not every package exports its package.json. */
function packageVersion(folder: string, name: string): string {
  const manifest = JSON.parse(readFileSync(new URL(`../../${folder}/node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

function gitRevision(): string {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=12'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '(not a git checkout)';
  }
}
