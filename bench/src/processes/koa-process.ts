import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { announced, collected, spawnNode, type ServerProcess } from './server-process.js';

const BASELINE_MAIN = fileURLToPath(new URL('./baseline-main.js', import.meta.url));
const FLOOR_MAIN = fileURLToPath(new URL('./floor-main.js', import.meta.url));

/** Starts the bare Koa baseline in its own process and waits for the origin it prints on stdout. */
export async function startBaseline(poolSize: number): Promise<ServerProcess> {
  const spawned = spawnNode(BASELINE_MAIN, [], { poolSize, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr = collected(spawned, 'stderr');
  const stdout = collected(spawned, 'stdout');
  return announced(spawned, 'the baseline', stdout, stderr);
}

/**
 * Starts the floor (floor-main.ts) in its own process, its log on stdout appended to `dir`/floor.log
 * and its audit trail to `dir`/floor-audit.log as tessera's are, and waits for the origin it prints on stderr.
 */
export async function startFloor(poolSize: number, dir: string): Promise<ServerProcess> {
  const log = openSync(join(dir, 'floor.log'), 'a');
  let spawned;
  try {
    spawned = spawnNode(FLOOR_MAIN, [join(dir, 'floor-audit.log')], { poolSize, stdio: ['ignore', log, 'pipe'] });
  } finally {
    closeSync(log);
  }
  const stderr = collected(spawned, 'stderr');
  return announced(spawned, 'the floor', stderr, stderr);
}
