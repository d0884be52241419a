import { once } from 'node:events';
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import { pino, type DestinationStream } from 'pino';
import { redactedText } from './redaction.js';

/**
 * Where the log or the audit trail is written, off the request path: the lines of the next
 * WRITE_AFTER_MS are joined and written to the file in one synchronous write (sooner when they reach
 * MAX_JOINED), from a timer. A write of a few KiB into the page cache costs the process some
 * microseconds; an asynchronous one goes through libuv's thread pool, whose sleeping thread is woken
 * for it and wakes the loop again when done, which measured five times as much here (a busy server
 * writes one chunk per WRITE_AFTER_MS, so it is paid for many requests at once either way). Lines stay
 * in order; a clean stop writes every buffered one, and a crash loses at most the last few
 * milliseconds' lines.
 *
 * stdout or stderr that is not a file (a pipe to a log collector, a terminal) gets pino's
 * asynchronous sonic-boom instead: such a descriptor may be non-blocking, and sonic-boom waits and
 * tries again where a synchronous write would fail on EAGAIN or block the server on a slow reader.
 */
export interface LogDestination {
  readonly stream: DestinationStream;
  /** Opens the file again under its name (logrotate moved it away); nothing for stdout or stderr. */
  reopen(): void;
  /** Writes every buffered line (those of files replaced by a reopen too) and stops; resolves once they are all written. Call it last. */
  close(): Promise<void>;
}

/** stdout (1) or stderr (2): batched as a file is when it is one, else written asynchronously. `what` names it in a failure's message. */
export function standardStream(fd: 1 | 2, what: string): LogDestination {
  if (isFile(fd)) return new BatchedLines(() => fd, what, false);
  const stream = pino.destination({ dest: fd, sync: false });
  // Without a listener a failed write would end the process; sonic-boom keeps the lines and tries again.
  let reported = false;
  stream.on('error', (error: Error) => {
    if (!reported) process.stderr.write(`tessera: writing ${what} failed: ${redactedText(error.message)}\n`);
    reported = true;
  });
  stream.on('write', () => (reported = false));
  let closing: Promise<void> | undefined;
  return {
    stream,
    reopen: () => undefined,
    close: () =>
      (closing ??= (async () => {
        const closed = once(stream, 'close');
        stream.end();
        await closed;
      })()),
  };
}

function isFile(fd: number): boolean {
  try {
    // bigint: on Node 20, a plain fstat of a pipe leaves the shared stat buffer in a state the ES module
    // resolver then misreads (the packages a pnpm dependency imports are not found: the oidc module's
    // provider failed to load whenever stdout was a pipe). The bigint stat has a buffer of its own.
    return fstatSync(fd, { bigint: true }).isFile();
  } catch {
    return false;
  }
}

/**
 * A file appended to and created readable by its owner only, its lines batched. Opened
 * synchronously first, so that a path that cannot be opened fails here with the system's error,
 * not on the first write.
 */
export function appendedFile(path: string, what: string): LogDestination {
  return new BatchedLines(() => openSync(path, 'a', 0o600), what, true);
}

/** After a failed write, lines are dropped for this long before the file is tried again. */
const RETRY_AFTER_MS = 1000;
/** Joined lines are written this long after the first of them, or as soon as they reach MAX_JOINED characters. */
const WRITE_AFTER_MS = 10;
const MAX_JOINED = 64 * 1024;

class BatchedLines implements LogDestination {
  private fd: number;
  /** When the last write failed, if it did: lines are dropped until RETRY_AFTER_MS later. */
  private failedAt: number | undefined;
  private reported = false;
  private closed = false;
  /** Lines not yet written, joined. */
  private joined = '';
  private writeTimer: NodeJS.Timeout | undefined;
  private readonly writeLater = () => this.writeJoined();
  readonly stream: DestinationStream = { write: (line: string) => this.write(line) };

  /** `owned`: the file is this destination's, opened again by a reopen and closed by a close (not stdout or stderr). */
  constructor(
    private readonly open: () => number,
    private readonly what: string,
    private readonly owned: boolean,
  ) {
    this.fd = open();
  }

  private write(line: string): void {
    // A closed file of its own takes no more lines; closed stdout or stderr still does, at once.
    if (this.closed && this.owned) return;
    if (this.failedAt !== undefined) {
      if (Date.now() - this.failedAt < RETRY_AFTER_MS) return;
      this.failedAt = undefined;
    }
    this.joined += line;
    // After a close, a late line (a last report while stopping) is written at once.
    if (this.joined.length >= MAX_JOINED || this.closed) this.writeJoined();
    // Kept referenced: a command that logs and ends still writes its lines before the process exits.
    else this.writeTimer ??= setTimeout(this.writeLater, WRITE_AFTER_MS);
  }

  private writeJoined(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    if (this.joined === '') return;
    const chunk = Buffer.from(this.joined);
    this.joined = '';
    try {
      for (let written = 0; written < chunk.length; ) written += writeSync(this.fd, chunk, written);
      this.reported = false;
    } catch (error) {
      this.failedAt = Date.now();
      // Once per failure: lines dropped until the file takes writes again.
      if (!this.reported) this.report(error as Error);
    }
  }

  /** Lines written before go to the file as it was (now under its old name); lines after to the file opened again under its name. */
  reopen(): void {
    if (!this.owned || this.closed) return;
    this.writeJoined();
    let next: number;
    try {
      next = this.open();
    } catch (error) {
      this.report(error as Error);
      return;
    }
    closeQuietly(this.fd);
    this.fd = next;
    this.failedAt = undefined;
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.writeJoined();
      this.closed = true;
      if (this.owned) closeQuietly(this.fd);
    }
    return Promise.resolve();
  }

  private report(error: Error): void {
    this.reported = true;
    process.stderr.write(`tessera: writing ${this.what} failed, lines are lost until it works again: ${redactedText(error.message)}\n`);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already gone: nothing left to write to it.
  }
}
