import { fileURLToPath } from 'node:url';
import { spawnNode } from './server-process.js';

const MAIN = fileURLToPath(new URL('./webauthn-raw-main.js', import.meta.url));

export interface RawWebAuthn {
  readonly perSecond: number;
  readonly cpuMicrosPerVerify: number;
}

/** The WebAuthn assertion verification rate: core's ceremonies, `inFlight` at a time for `seconds`, in a fresh process. */
export async function rawWebAuthn(options: { seconds: number; inFlight: number; poolSize: number }): Promise<RawWebAuthn> {
  const spawned = spawnNode(MAIN, [String(options.seconds), String(options.inFlight)], { poolSize: options.poolSize, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  spawned.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  spawned.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await spawned.exited;
  if (code !== 0) throw new Error(`the WebAuthn verification measure exited with ${code}: ${stderr}`);
  const { verifies, seconds, cpuMicros } = JSON.parse(stdout) as { verifies: number; seconds: number; cpuMicros: number };
  return { perSecond: verifies / seconds, cpuMicrosPerVerify: cpuMicros / Math.max(1, verifies) };
}
