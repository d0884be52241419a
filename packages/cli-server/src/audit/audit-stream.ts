import type { DestinationStream, Logger } from 'pino';
import { configurationError } from '../config/errors.js';
import { appendedFile, standardStream, type LogDestination } from '../log-destination.js';
import { createAuditLogger } from '../logging.js';
import type { Redaction } from '../redaction.js';

/** The audit trail's logger and what its destination needs from the process's life. */
export interface AuditStream {
  readonly logger: Logger;
  /** The path written to, when the destination is a file. */
  readonly file?: string;
  /** Opens the file again under its name, after logrotate moved it (SIGHUP). Nothing for other destinations. */
  reopen(): void;
  /** Writes every record still buffered; resolves once they are written. */
  close(): Promise<void>;
}

/**
 * Opens `audit.destination` when it is not `off`: `stdout`, `stderr`, or a file appended to, created
 * readable by the owner only. Records are written in batches off the request path (see
 * LogDestination), in order, and all of them before a clean stop ends. `replacement` (tests) takes
 * the place of any destination but `off`.
 */
export function openAuditStream(destination: string, node: string, replacement?: DestinationStream, redaction?: Redaction): AuditStream {
  if (replacement) return { logger: createAuditLogger(replacement, node, redaction), reopen: () => undefined, close: () => Promise.resolve() };
  const written = destination === 'stdout' || destination === 'stderr' ? standardStream(destination === 'stdout' ? 1 : 2, 'the audit trail') : openFile(destination);
  return {
    logger: createAuditLogger(written.stream, node, redaction),
    ...(destination !== 'stdout' && destination !== 'stderr' && { file: destination }),
    reopen: () => written.reopen(),
    close: () => written.close(),
  };
}

function openFile(path: string): LogDestination {
  try {
    return appendedFile(path, `the audit trail to ${path}`);
  } catch (error) {
    const problem = `cannot open ${path} for appending (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    throw configurationError([{ setting: 'audit.destination', problem }]);
  }
}
