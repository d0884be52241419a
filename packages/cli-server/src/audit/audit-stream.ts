import { pino, type DestinationStream, type Logger } from 'pino';
import { configurationError } from '../config/errors.js';
import { createAuditLogger } from '../logging.js';

/** The audit trail's logger and what its destination needs from the process's life. */
export interface AuditStream {
  readonly logger: Logger;
  /** The path written to, when the destination is a file. */
  readonly file?: string;
  /** Opens the file again under its name, after logrotate moved it (SIGHUP). Nothing for other destinations. */
  reopen(): void;
  close(): void;
}

/**
 * Opens `audit.destination`: `off` (undefined), `stdout`, `stderr`, or a file appended to, created
 * readable by the owner only. Writes are synchronous, so a record is in the file once the answer
 * is sent. `replacement` (tests) takes the place of any destination but `off`.
 */
export function openAuditStream(destination: string, node: string, replacement?: DestinationStream): AuditStream | undefined {
  if (destination === 'off') return undefined;
  if (replacement) return { logger: createAuditLogger(replacement, node), reopen: () => undefined, close: () => undefined };
  if (destination === 'stdout' || destination === 'stderr') {
    const stream = pino.destination({ dest: destination === 'stdout' ? 1 : 2, sync: true });
    return { logger: createAuditLogger(stream, node), reopen: () => undefined, close: () => undefined };
  }
  const file = openFile(destination);
  return { logger: createAuditLogger(file, node), file: destination, reopen: () => file.reopen(), close: () => file.end() };
}

function openFile(path: string) {
  try {
    return pino.destination({ dest: path, append: true, sync: true, mode: 0o600 });
  } catch (error) {
    const problem = `cannot open ${path} for appending (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    throw configurationError([{ setting: 'audit.destination', problem }]);
  }
}
