import { fileURLToPath } from 'node:url';
import { spawnNode, stopCleanly, waitFor, type ServerProcess } from './server-process.js';

const MAIN = fileURLToPath(new URL('./baseline-main.js', import.meta.url));

/** Starts the bare Koa baseline in its own process and waits for the origin it prints. */
export async function startBaseline(poolSize: number): Promise<ServerProcess> {
  const spawned = spawnNode(MAIN, [], { poolSize, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  spawned.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  spawned.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const details = () => (stderr ? `:\n${stderr}` : '');
  const origin = await waitFor(spawned, 'the baseline', 30, () => /^(http:\/\/\S+)\n/.exec(stdout)?.[1], details);
  return { pid: spawned.pid, origin, close: () => stopCleanly(spawned, 'the baseline', details) };
}
