import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Makes `server` closable gracefully: the returned function stops accepting connections, lets the
 * requests in flight finish (their connections close after the answer instead of idling in
 * keep-alive), answers for a short drain (see drainMs) the requests that still come on open
 * keep-alive connections, with `Connection: close`, then closes the idle connections, and after
 * `timeoutMs` whatever connections remain. With no connection open it resolves at once.
 */
export function gracefulCloser(server: Server): (timeoutMs: number) => Promise<void> {
  // The responses of the requests that came in, answered ones dropped every SWEEP_EVERY requests
  // (a 'close' listener on each response cost a busy server more than this sweep; a list, not a Set,
  // which would give each response an identity hash).
  let noted: ServerResponse[] = [];
  let closing = false;

  server.prependListener('request', (_request, response: ServerResponse) => {
    if (closing) response.setHeader('connection', 'close');
    if (noted.push(response) % SWEEP_EVERY !== 0) return;
    noted = noted.filter((earlier) => !earlier.writableFinished && !earlier.destroyed);
  });

  return (timeoutMs) =>
    new Promise<void>((resolve) => {
      closing = true;
      for (const response of noted) if (!response.headersSent && !response.destroyed) response.setHeader('connection', 'close');
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
