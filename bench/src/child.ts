import { fork } from 'node:child_process';
import type { FlowProgress, FlowSpec, LoadOutcome, LoadSpec, SamlLoginSpec } from './load-spec.js';

/** Runs one load in a fresh driver child process (autocannon) and resolves with what it measured; a flow reports its progress on the way. */
export function drive(spec: LoadSpec | FlowSpec | SamlLoginSpec, onProgress?: (progress: FlowProgress) => void): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./drive.js', import.meta.url), {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answered = false;
    child.on('message', (answer: LoadOutcome | { error: string } | { progress: FlowProgress }) => {
      if ('progress' in answer) return onProgress?.(answer.progress);
      answered = true;
      if ('error' in answer) reject(new Error(`the load generator failed: ${answer.error}`));
      else resolve(answer);
    });
    child.once('exit', (code) => {
      if (!answered) reject(new Error(`the load generator exited with ${code} before answering`));
    });
    child.send(spec);
  });
}
