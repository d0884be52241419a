import { once } from 'node:events';
import { createWriteStream, fstatSync, openSync, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { pino, type DestinationStream } from 'pino';
import { redactedText } from './redaction.js';

/**
 * Where the log or the audit trail is written, off the request path: the lines of the next
 * HAND_OVER_MS are joined and handed to a Node file stream as one chunk, whose writes go out
 * asynchronously, one at a time, each taking every chunk that came while the one before was in
 * flight. Each write is a trip through libuv's thread pool that costs the process tens of
 * microseconds: a busy server writing every turn's lines made about two for three requests, a few
 * milliseconds' lines make one for many. Lines stay in order; a clean stop writes every buffered one
 * (a crash loses at most the last few milliseconds' lines, as it lost a write in flight before).
 *
 * Node's stream and not pino's asynchronous sonic-boom for files: measured per line (pino
 * serialising, then the write), sonic-boom's asynchronous mode cost more CPU than its synchronous
 * one, as it measures the byte length of its whole pending buffer on every line; Node's stream cost
 * the least. stdout or stderr that is not a file (a pipe to a log collector, a terminal) gets
 * sonic-boom all the same: such a descriptor may be non-blocking, and sonic-boom waits and tries
 * again where Node's stream would fail on EAGAIN.
 */
export interface LogDestination {
  readonly stream: DestinationStream;
  /** Opens the file again under its name (logrotate moved it away); nothing for stdout or stderr. */
  reopen(): void;
  /** Writes every buffered line (those of files replaced by a reopen too) and stops; resolves once they are all written. Call it last. */
  close(): Promise<void>;
}

/** stdout (1) or stderr (2), written asynchronously. `what` names it in a failure's message. */
export function standardStream(fd: 1 | 2, what: string): LogDestination {
  if (isFile(fd)) return new AsyncLines(() => createWriteStream('', { fd, autoClose: false }), what, false);
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
 * A file appended to and created readable by its owner only, written asynchronously. Opened
 * synchronously first, so that a path that cannot be opened fails here with the system's error,
 * not on the first write.
 */
export function appendedFile(path: string, what: string): LogDestination {
  const open = () => createWriteStream(path, { fd: openSync(path, 'a', 0o600) });
  return new AsyncLines(open, what, true);
}

/** After a failed write, lines are dropped for this long before a fresh stream is tried. */
const RETRY_AFTER_MS = 1000;
/** Joined lines are handed over this long after the first of them, or as soon as they reach MAX_JOINED characters. */
const HAND_OVER_MS = 10;
const MAX_JOINED = 64 * 1024;

class AsyncLines implements LogDestination {
  private current: WriteStream;
  /** When the current stream failed, if it did. */
  private failedAt: number | undefined;
  private reported = false;
  private closing: Promise<void> | undefined;
  /** Lines not yet handed to the stream, joined. */
  private joined = '';
  private handOverTimer: NodeJS.Timeout | undefined;
  private readonly handOver = () => this.handOverJoined();
  /** Streams replaced by a reopen that may still be writing their last lines to the old file. */
  private readonly retiring = new Set<Promise<void>>();
  readonly stream: DestinationStream = { write: (line: string) => this.write(line) };

  constructor(
    private readonly open: () => WriteStream,
    private readonly what: string,
    private readonly reopenable: boolean,
  ) {
    this.current = this.watched(open());
  }

  private write(line: string): void {
    // A stream that failed is destroyed with what it held: a later line goes to a fresh one.
    if (this.failedAt !== undefined) {
      if (Date.now() - this.failedAt < RETRY_AFTER_MS) return;
      this.replace();
    }
    this.joined += line;
    if (this.joined.length >= MAX_JOINED) this.handOverJoined();
    // Kept referenced: a command that logs and ends still writes its lines before the process exits.
    else this.handOverTimer ??= setTimeout(this.handOver, HAND_OVER_MS);
  }

  private handOverJoined(): void {
    clearTimeout(this.handOverTimer);
    this.handOverTimer = undefined;
    if (this.joined === '') return;
    const chunk = this.joined;
    this.joined = '';
    if (this.failedAt === undefined) this.current.write(chunk);
  }

  reopen(): void {
    if (this.reopenable && this.closing === undefined) this.replace();
  }

  close(): Promise<void> {
    return (this.closing ??= (async () => {
      this.handOverJoined();
      this.current.end();
      await Promise.all([finished(this.current).catch(() => undefined), ...this.retiring]);
    })());
  }

  /** The old stream still writes what it holds to the old file, then closes; new lines go to the new one. */
  private replace(): void {
    this.handOverJoined();
    let next: WriteStream;
    try {
      next = this.watched(this.open());
    } catch (error) {
      this.report(error as Error);
      return;
    }
    if (this.failedAt === undefined) this.retire(this.current);
    this.current = next;
    this.failedAt = undefined;
  }

  private retire(stream: WriteStream): void {
    stream.end();
    const done: Promise<void> = finished(stream)
      .catch(() => undefined)
      .then(() => void this.retiring.delete(done));
    this.retiring.add(done);
  }

  private watched(stream: WriteStream): WriteStream {
    // Without a listener a failed write (a full disk, a closed pipe) would end the process.
    stream.on('error', (error: Error) => {
      if (stream !== this.current) return;
      this.failedAt = Date.now();
      // Once per failure: a fresh stream that fails before writing anything is the same failure.
      if (!this.reported || stream.bytesWritten > 0) this.report(error);
    });
    return stream;
  }

  private report(error: Error): void {
    this.reported = true;
    process.stderr.write(`tessera: writing ${this.what} failed, lines are lost until it works again: ${redactedText(error.message)}\n`);
  }
}
