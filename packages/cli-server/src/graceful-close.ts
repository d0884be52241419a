import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * Makes `server` closable gracefully: the returned function stops accepting connections, lets the
 * requests in flight finish (their connections close after the answer instead of idling in
 * keep-alive), answers for a short drain (see drainMs) the requests that still come on open
 * keep-alive connections, with `Connection: close` (one a connection: those pipelined behind it are not
 * processed), then closes the idle connections, and after `timeoutMs` whatever connections remain. With
 * no connection open it resolves at once.
 */
export function gracefulCloser(server: Server): (timeoutMs: number) => Promise<void> {
  // The responses of the requests that came in, those no longer awaiting their headers dropped every
  // SWEEP_EVERY requests (a 'close' listener on each response cost a busy server more than this sweep;
  // a list, not a Set, which would give each response an identity hash).
  let noted: ServerResponse[] = [];
  let closing = false;
  // The connections an answer saying `Connection: close` is on, from the close's beginning.
  const closingConnections = new WeakSet<Socket>();

  server.prependListener('request', (_request, response: ServerResponse) => {
    if (closing) closeAfter(response);
    if (noted.push(response) % SWEEP_EVERY !== 0) return;
    noted = noted.filter(awaitsHeaders);
  });

  return (timeoutMs) =>
    new Promise<void>((resolve) => {
      if (!closing) processOneRequestPerConnection(server, closingConnections);
      closing = true;
      for (const response of noted) {
        if (!awaitsHeaders(response)) continue;
        closeAfter(response);
        closingConnections.add(response.req.socket);
      }
      server.getConnections((_error, open) => {
        // Nothing open, nothing to drain: closed at once.
        if (open === 0) {
          server.close(() => resolve());
          return;
        }
        const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
        // At the drain's end, http's close() closes the idle connections, and ends Node's (unref'd) timer
        // checking the connections' timeouts (when every connection ends within the drain that timer
        // stays: http's close() on a closed server would emit 'close' a second time). One more poll of
        // the sockets comes first (setImmediate runs after it): a request that arrived while the loop was
        // busy past the drain's end is read, not reset.
        let closingIdle: NodeJS.Immediate | undefined;
        const drain = setTimeout(() => (closingIdle = setImmediate(() => server.close())), drainMs(timeoutMs));
        // http's close() would close the idle keep-alive connections at once, among them one whose next
        // request has arrived but is not read yet (its client gets ECONNRESET for a request sent before
        // the stop); net's close() stops accepting and keeps the open connections.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(drain);
          if (closingIdle !== undefined) clearImmediate(closingIdle);
          clearTimeout(deadline);
          resolve();
        });
      });
    });
}

/**
 * The response says `Connection: close` and its connection ends after it, even when a handler removes its
 * headers (Koa's error answer removes them all): Node then ends it without saying so, rather than keep it.
 */
function closeAfter(response: ServerResponse): void {
  response.setHeader('connection', 'close');
  response.shouldKeepAlive = false;
}

/**
 * From now on a request reaches the server's listeners only when no answer on its connection says
 * `Connection: close` yet (`closing` holds the connections of those): one pipelined behind such an answer
 * is not processed, as HTTP/1.1 requires (RFC 9112 §9.6), since its client never gets its answer; the
 * connection ends after the answer before it. Installed only once the close began, so that requests
 * before it pay nothing for it.
 */
function processOneRequestPerConnection(server: Server, closing: WeakSet<Socket>): void {
  const listeners = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', function admitFirst(this: Server, request: IncomingMessage, response: ServerResponse) {
    if (closing.has(request.socket)) return;
    closing.add(request.socket);
    for (const listener of listeners) listener.call(this, request, response);
  });
}

/**
 * Whether a response may still be told to close its connection: its headers are not written yet and its
 * connection is open. The connection is asked too: a pipelined request's response waits for the ones
 * before it without a socket of its own, and when the connection breaks first it is neither destroyed
 * nor ever finished (its answer stays buffered); kept, it would be held for good, one for each request
 * a client pipelines and then resets.
 */
function awaitsHeaders(response: ServerResponse): boolean {
  return !response.headersSent && !response.destroyed && !response.req.socket.destroyed;
}

/**
 * How long open keep-alive connections may still bring a request once the close began: a tenth of the
 * timeout, at most DRAIN_MAX_MS. A request sent as the stop began reaches the server within
 * milliseconds on a network (on loopback it is there at once, and only a busy loop delays its reading); the cap keeps a stop with idle connections (a load balancer's
 * pool) at most that much longer, and the tenth keeps it a small part of a short timeout, which bounds the
 * whole stop. Requests in flight are not cut at its end, only the connections idle then.
 */
export function drainMs(timeoutMs: number): number {
  return Math.min(timeoutMs / 10, DRAIN_MAX_MS);
}

const DRAIN_MAX_MS = 250;

/** How many requests come between two sweeps of the answered responses: at most this many are held after their answer. */
const SWEEP_EVERY = 128;
