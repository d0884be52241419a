import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { EventSink } from '@tessera/core';
import { peerAddress } from '../request/trusted-peers.js';

/** Statuses of the listener's own refusals, as Node answers them itself; any other code is 400. */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** A connection the client reset or closed has nothing left to refuse. */
const HANG_UPS = new Set(['ECONNRESET', 'EPIPE']);

interface ConnectionSocket extends Duplex {
  readonly remoteAddress?: string;
  /** Node's in-flight response of the connection, if any. */
  readonly _httpMessage?: { readonly headersSent?: boolean } | null;
}

/**
 * The `clientError` listener of every HTTP(S) listener: what Node's parser cannot read (`HPE_*`) or
 * what does not arrive within the listener's timeouts is the client's fault. It answers as Node
 * would (400, 408, 413, 431 unless an answer is under way) and closes the connection, then reports
 * `request.unreadable` with the code and the peer only. The error itself goes nowhere: it carries
 * the connection's raw bytes, another request's password among them. Destroying the socket without
 * the error keeps it from reaching Koa's `error` event through the request in flight.
 */
export function answerClientErrors(events: EventSink): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket: ConnectionSocket) => {
    const code = typeof error.code === 'string' ? error.code : 'UNKNOWN';
    if (HANG_UPS.has(code) || !socket.writable) {
      socket.destroy();
      return;
    }
    // Read before the socket is destroyed, which forgets it.
    const { remoteAddress } = socket;
    const status = STATUS_BY_CODE[code] ?? 400;
    if (socket._httpMessage?.headersSent !== true) {
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
    try {
      events.emit({ type: 'request.unreadable', code, ...(remoteAddress && { peerAddress: peerAddress({ remoteAddress }) }) });
    } catch {
      // A sink breaking its no-throw contract must not leave the connection to a crash.
    }
  };
}
