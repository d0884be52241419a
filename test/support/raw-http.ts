import { connect, type Socket } from 'node:net';

/** Sends bytes exactly as given (fetch would normalise them) and returns the status code of the answer. */
export function rawRequest(baseUrl: string, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connectTo(baseUrl, () => socket.end(request));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`connection closed without a status: ${answer.slice(0, 80)}`)));
  });
}

export interface Conversation {
  /** Everything the server sent, as latin1 text. */
  readonly answer: string;
  /** The status line of each answer, in order. */
  readonly statuses: number[];
  /** Milliseconds from the connection to the server closing it. */
  readonly closedAfterMs: number;
}

/**
 * Writes `chunks` on one connection, `gapMs` apart, and never ends it: resolves once the server closes
 * the connection, with all it sent. Rejects when the server holds the connection past `deadlineMs`.
 */
export function converse(baseUrl: string, chunks: readonly string[], { gapMs = 0, deadlineMs = 5_000 } = {}): Promise<Conversation> {
  return new Promise((resolve, reject) => {
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    const socket = connectTo(baseUrl, () => writeFrom(0));
    const writeFrom = (index: number): void => {
      if (index >= chunks.length || socket.destroyed) return;
      socket.write(chunks[index]!);
      timer = setTimeout(() => writeFrom(index + 1), gapMs);
    };
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server still held the connection after ${deadlineMs} ms; it sent: ${answer.slice(0, 120)}`));
    }, deadlineMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    // The server may reset a connection it refuses: what it sent before still counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      clearTimeout(deadline);
      const statuses = [...answer.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3}) /g)].map((match) => Number(match[1]));
      resolve({ answer, statuses, closedAfterMs: Date.now() - started });
    });
  });
}

function connectTo(baseUrl: string, onConnect: () => void): Socket {
  const { hostname, port } = new URL(baseUrl);
  return connect(Number(port), hostname, onConnect);
}
