import type { Server, ServerResponse } from 'node:http';

/**
 * Makes `server` closable gracefully: the returned function stops accepting connections, lets the
 * requests in flight finish (their connections close after the answer instead of idling in
 * keep-alive), and after `timeoutMs` closes whatever connections remain.
 */
export function gracefulCloser(server: Server): (timeoutMs: number) => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  // One listener function for every response ('close' comes once), not a wrapper made per request.
  function forget(this: ServerResponse): void {
    inFlight.delete(this);
  }
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (closing) response.setHeader('connection', 'close');
    inFlight.add(response);
    response.on('close', forget);
  });

  return (timeoutMs) =>
    new Promise<void>((resolve) => {
      closing = true;
      for (const response of inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
      const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    });
}
