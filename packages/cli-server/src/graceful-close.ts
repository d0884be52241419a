import type { Server, ServerResponse } from 'node:http';

/**
 * Makes `server` closable gracefully: the returned function stops accepting connections, lets the
 * requests in flight finish (their connections close after the answer instead of idling in
 * keep-alive), and after `timeoutMs` closes whatever connections remain.
 */
export function gracefulCloser(server: Server): (timeoutMs: number) => Promise<void> {
  // The responses of the requests that came in, answered ones dropped every SWEEP_EVERY requests
  // (a 'close' listener on each response cost a busy server more than this sweep).
  const noted = new Set<ServerResponse>();
  let notedSinceSweep = 0;
  let closing = false;

  server.prependListener('request', (_request, response: ServerResponse) => {
    if (closing) response.setHeader('connection', 'close');
    noted.add(response);
    if (++notedSinceSweep < SWEEP_EVERY) return;
    notedSinceSweep = 0;
    for (const answered of noted) if (answered.writableFinished || answered.destroyed) noted.delete(answered);
  });

  return (timeoutMs) =>
    new Promise<void>((resolve) => {
      closing = true;
      for (const response of noted) if (!response.headersSent && !response.destroyed) response.setHeader('connection', 'close');
      const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    });
}

/** How many requests come between two sweeps of the answered responses: at most this many are held after their answer. */
const SWEEP_EVERY = 128;
