import { fileURLToPath } from 'node:url';
import { spawnNode } from './server-process.js';

const MAIN = fileURLToPath(new URL('./argon2-raw-main.js', import.meta.url));

export interface RawArgon2 {
  readonly perSecond: number;
  readonly cpuMicrosPerVerify: number;
}

/**
 * The raw argon2id verify rate: core's hasher with `inFlight` verifications at a time for
 * `seconds`, in a fresh process with a thread pool of `poolSize`, like the server it is compared with.
 */
export async function rawArgon2(phc: string, password: string, options: { seconds: number; inFlight: number; poolSize: number }): Promise<RawArgon2> {
  const spawned = spawnNode(MAIN, [String(options.seconds), String(options.inFlight)], { poolSize: options.poolSize, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  spawned.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  spawned.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  spawned.child.stdin?.end(`${phc}\n${password}`);
  const code = await spawned.exited;
  if (code !== 0) throw new Error(`the raw argon2 measure exited with ${code}: ${stderr}`);
  const { verifies, seconds, cpuMicros } = JSON.parse(stdout) as { verifies: number; seconds: number; cpuMicros: number };
  return { perSecond: verifies / seconds, cpuMicrosPerVerify: cpuMicros / Math.max(1, verifies) };
}
