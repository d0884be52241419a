import type { ChildProcess } from 'node:child_process';

/** Polls `ready` every 50 ms until it holds; fails with `output()` once the server exits or 10 s pass. */
export async function untilServing(child: ChildProcess, ready: () => Promise<boolean>, what: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await ready())) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${what} did not start: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops a server (SIGTERM, or the signal given) and waits for its exit, so its port refuses connections afterwards. */
export async function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
