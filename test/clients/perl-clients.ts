import { fileURLToPath } from 'node:url';
import { runProgram } from './harness.js';

/** What a Perl client script (authen-cas-client.pl, authcas.pl) printed about one validation. */
export interface PerlOutcome {
  readonly outcome: 'success' | 'failure' | 'error';
  readonly user?: string;
  readonly attributes?: Record<string, string[]>;
  readonly code?: string;
  readonly message?: string;
  readonly error?: string;
}

/** Runs `test/clients/<script>` with perl and parses the JSON line it prints. */
export async function runPerlClient(script: string, args: readonly string[]): Promise<PerlOutcome> {
  const result = await runProgram('perl', [fileURLToPath(new URL(script, import.meta.url)), ...args]);
  if (result.code !== 0) throw new Error(`${script} exited with ${result.code}:\n${result.stderr}`);
  return JSON.parse(result.stdout) as PerlOutcome;
}
