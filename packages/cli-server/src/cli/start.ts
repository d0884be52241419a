import { InvalidConfigurationError } from '@tessera/core';
import { loadConfig } from '../config/load.js';
import { redactedText } from '../redaction.js';
import type { RunningServer } from '../server.js';

export interface StartArguments {
  readonly config?: string;
  readonly port?: string;
}

/**
 * `tessera start`: loads and checks the configuration, serves, and on SIGINT/SIGTERM lets requests in
 * flight finish before exiting 0 (a second signal exits at once). Bad configuration exits 2.
 */
export async function start(args: StartArguments): Promise<void> {
  let server: RunningServer;
  try {
    const config = loadConfig({
      env: process.env,
      ...(args.config === undefined ? {} : { file: args.config }),
      ...(args.port === undefined ? {} : { port: args.port }),
    });
    // Loaded only now, so a bad configuration is reported before the web stack is even read.
    const { startServer } = await import('../server.js');
    server = await startServer({ config });
  } catch (error) {
    if (!(error instanceof InvalidConfigurationError)) throw error;
    process.stderr.write(`tessera: invalid configuration\n${indent(redactedText(error.message))}\n`);
    process.exit(2);
  }

  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`tessera: could not stop cleanly: ${redactedText(error instanceof Error ? error.message : `a thrown ${typeof error}`)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // logrotate's postrotate convention; only an audit file has anything to reopen, so otherwise SIGHUP keeps its default.
  const { reopenAuditFile } = server;
  if (reopenAuditFile) process.on('SIGHUP', reopenAuditFile);
}

function indent(lines: string): string {
  return lines.replace(/^/gm, '  ');
}
