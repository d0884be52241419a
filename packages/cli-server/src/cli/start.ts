import type { LoadOptions } from '../config/load.js';
import { withConfiguration, type Output } from './configuration.js';

/**
 * `tessera start`: loads and checks the configuration, serves, and on SIGINT/SIGTERM lets requests in
 * flight finish before exiting 0 (a second signal exits at once). Bad configuration exits 2; while
 * serving, it resolves to undefined and the process lives on.
 */
export async function start(options: LoadOptions, err: Output): Promise<number | undefined> {
  return withConfiguration(options, err, async (config) => {
    // Loaded only now, so a bad configuration is reported before the web stack is even read.
    const { startServer } = await import('../server.js');
    const server = await startServer({ config });
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(1);
      stopping = true;
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`tessera: could not stop cleanly: ${String(error)}\n`);
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // logrotate's postrotate convention; only an audit file has anything to reopen, so otherwise SIGHUP keeps its default.
    const { reopenAuditFile } = server;
    if (reopenAuditFile) process.on('SIGHUP', reopenAuditFile);
    return undefined;
  });
}
