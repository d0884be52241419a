import { fork } from 'node:child_process';
import type { LoadOutcome, LoadSpec } from './load-spec.js';

/** Forks a bench child module, sends it one message and resolves with its one answer. */
export function askChild<Answer>(module: string, message: unknown, execArgv: readonly string[] = []): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(module, import.meta.url), {
      execArgv: [...execArgv],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answered = false;
    child.once('message', (answer: Answer | { error: string }) => {
      answered = true;
      if (typeof answer === 'object' && answer !== null && 'error' in answer) reject(new Error(`${module} failed: ${answer.error}`));
      else resolve(answer);
    });
    child.once('exit', (code) => {
      if (!answered) reject(new Error(`${module} exited with ${code} before answering`));
    });
    child.send(message as object);
  });
}

/** Runs one load in a fresh driver child process and resolves with what it measured. */
export function drive(spec: LoadSpec): Promise<LoadOutcome> {
  return askChild<LoadOutcome>('./drive.js', spec);
}
