import { connect, type Socket } from 'node:net';
import { rememberRawRequest } from './log-canary.js';

/** Sends bytes exactly as given (fetch would normalise them) and returns the status code of the answer. */
export function rawRequest(baseUrl: string, request: string): Promise<number> {
  rememberRawRequest(request);
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
  rememberRawRequest(chunks.join(''));
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
      resolve({ answer, statuses: statusesOf(answer), closedAfterMs: Date.now() - started });
    });
  });
}

/** The status of each answer in `text`, read one after the other (Content-Length or chunked bodies). */
function statusesOf(text: string): number[] {
  const statuses: number[] = [];
  let at = 0;
  while (at < text.length) {
    const head = /^HTTP\/1\.[01] (\d{3})[^\r]*\r\n((?:[^\r]+\r\n)*)\r\n/.exec(text.slice(at));
    if (!head) throw new Error(`not an HTTP answer at ${at}: ${JSON.stringify(text.slice(at, at + 80))}`);
    statuses.push(Number(head[1]));
    at += head[0].length;
    const length = /^content-length: *(\d+)/im.exec(head[2]!);
    if (length) at += Number(length[1]);
    else if (/^transfer-encoding: *chunked/im.test(head[2]!)) at = afterChunks(text, at);
  }
  return statuses;
}

function afterChunks(text: string, from: number): number {
  let at = from;
  for (;;) {
    const size = /^([0-9a-f]+)[^\r]*\r\n/i.exec(text.slice(at));
    if (!size) throw new Error(`not a chunk at ${at}`);
    at += size[0].length + Number.parseInt(size[1]!, 16) + 2;
    if (size[1] === '0') return at;
  }
}

function connectTo(baseUrl: string, onConnect: () => void): Socket {
  const { hostname, port } = new URL(baseUrl);
  return connect(Number(port), hostname, onConnect);
}
