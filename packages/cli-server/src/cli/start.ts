import type { LoadOptions } from '../config/load.js';
import type { RunningServer } from '../server.js';
import { redactedText } from '../redaction.js';
import type { Output } from './command.js';
import { withConfiguration } from './configuration.js';

/**
 * `tessera start`: loads and checks the configuration, serves, and on SIGINT/SIGTERM lets requests in
 * flight finish before exiting 0 (a second signal exits at once). Bad configuration exits 2; while
 * serving, it resolves to undefined and the process lives on.
 */
export async function start(options: LoadOptions, err: Output): Promise<number | undefined> {
  return withConfiguration(options, err, async (config) => {
    // Loaded only now, so a bad configuration is reported before the web stack is even read.
    const { startServer } = await import('../server.js');
    // Listening before the server is up: a signal right after the ready line must stop it gracefully too.
    let server: RunningServer | undefined = undefined;
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(1);
      stopping = true;
      if (server) closeAndExit(server);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    server = await startServer({ config });
    if (stopping) closeAndExit(server);
    // logrotate's postrotate convention; only an audit file has anything to reopen, so otherwise SIGHUP keeps its default.
    const { reopenAuditFile } = server;
    if (reopenAuditFile) process.on('SIGHUP', reopenAuditFile);
    return undefined;
  });
}

function closeAndExit(server: RunningServer): void {
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`tessera: could not stop cleanly: ${redactedText(error instanceof Error ? error.message : `a thrown ${typeof error}`)}\n`);
      process.exit(1);
    },
  );
}
