import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { drainMs, gracefulCloser } from '../src/graceful-close.js';

/** A request for `path` on a kept-alive HTTP/1.1 connection. */
const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

/** How a raw connection ended: what it received, and whether the server ended it cleanly (FIN) or it broke (ECONNRESET, EPIPE). */
interface Ending {
  readonly received: string;
  readonly endedCleanly: boolean;
  readonly error: string | undefined;
}

/** A raw TCP connection to the server: the most deterministic keep-alive client (no pool, no retry). */
class RawConnection {
  private received = '';
  private endedCleanly = false;
  private error: string | undefined;
  private readonly waiting: { text: string; found(): void }[] = [];
  /** Resolves once the connection is closed, however it was. */
  readonly ended: Promise<Ending>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1');
      for (const wait of this.waiting.filter((candidate) => this.received.includes(candidate.text))) wait.found();
    });
    socket.on('end', () => (this.endedCleanly = true));
    socket.on('error', (error: NodeJS.ErrnoException) => (this.error = error.code ?? error.message));
    this.ended = new Promise((resolve) => socket.once('close', () => resolve({ received: this.received, endedCleanly: this.endedCleanly, error: this.error })));
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
    });
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Resolves once `text` has been received (an answer's body, say). */
  until(text: string): Promise<void> {
    if (this.received.includes(text)) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ text, found: resolve }));
  }

  /** Ends the connection from the client's side. */
  end(): void {
    this.socket.end();
  }

  get closed(): boolean {
    return this.socket.closed;
  }
}

/** The answers the connection received after the one whose body is `body`. */
const after = (received: string, body: string) => received.slice(received.indexOf(body) + body.length);

const refuses = (port: number) =>
  RawConnection.open(port).then(
    () => false,
    () => true,
  );

// A real http.Server closed with gracefulCloser: GET /<name> answers `answer to /<name>`; GET /held/<name>
// answers once release(name) is called.
describe('gracefulCloser', () => {
  let server: Server;
  let port: number;
  let closeGracefully: (timeoutMs: number) => Promise<void>;
  const held = new Map<string, () => void>();
  const arrived = new Map<string, () => void>();

  const heldArrived = (name: string) => new Promise<void>((resolve) => arrived.set(name, resolve));
  const release = (name: string) => held.get(name)?.();

  beforeEach(async () => {
    server = createServer((request, response) => {
      // As Koa's error answer does.
      if (request.url === '/headers-removed') for (const name of response.getHeaderNames()) response.removeHeader(name);
      const answer = () => response.setHeader('content-type', 'text/plain').end(`answer to ${request.url}`);
      const name = /^\/held\/(.+)$/.exec(request.url ?? '')?.[1];
      if (name === undefined) {
        answer();
      } else {
        held.set(name, answer);
        arrived.get(name)?.();
      }
    });
    closeGracefully = gracefulCloser(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(() => {
    server.closeAllConnections();
    server.close();
    held.clear();
    arrived.clear();
  });

  const writtenThenClosing = (connection: RawConnection) => {
    connection.write(get('/second'));
    return closeGracefully(60_000);
  };
  const closingThenWritten = (connection: RawConnection) => {
    const closing = closeGracefully(60_000);
    connection.write(get('/second'));
    return closing;
  };
  for (const [when, writeAndClose] of [
    ['has arrived but is not read yet as the close begins', writtenThenClosing],
    ['is written right after the close began', closingThenWritten],
  ] as const) {
    it(`a request on an idle keep-alive connection that ${when} is answered with Connection: close, then the connection ends cleanly`, async () => {
      const connection = await RawConnection.open(port);
      connection.write(get('/first'));
      await connection.until('answer to /first');

      const closing = writeAndClose(connection);
      const ending = await connection.ended;
      await closing;

      expect(ending.error, 'the connection broke').to.equal(undefined);
      const second = after(ending.received, 'answer to /first');
      expect(second).to.match(/^HTTP\/1\.1 200 OK\r\n/);
      expect(second).to.match(/\r\nconnection: close\r\n/i);
      expect(second.endsWith('\r\n\r\nanswer to /second')).to.equal(true);
      expect(ending.endedCleanly, 'the server ended the connection (FIN)').to.equal(true);
      expect(await refuses(port), 'a new connection once the close began').to.equal(true);
    });
  }

  it('with no connection open, the close resolves at once, before the event loop turns', async () => {
    const opened = await RawConnection.open(port);
    opened.write(get('/first'));
    await opened.until('answer to /first');
    // The client ends its connection: nothing is open when the close begins.
    opened.end();
    await opened.ended;
    await new Promise((resolve) => setImmediate(resolve));

    const order: string[] = [];
    const closing = closeGracefully(60_000).then(() => order.push('closed'));
    const turned = new Promise<void>((resolve) => setImmediate(() => (order.push('next turn of the event loop'), resolve())));
    await Promise.all([closing, turned]);
    expect(order).to.deep.equal(['closed', 'next turn of the event loop']);
    expect(server.listening).to.equal(false);
  });

  it('idle keep-alive connections are closed after the drain, while a request in flight goes on and is answered with Connection: close', async () => {
    const idle = await RawConnection.open(port);
    idle.write(get('/first'));
    await idle.until('answer to /first');
    const busy = await RawConnection.open(port);
    const busyArrived = heldArrived('busy');
    busy.write(get('/held/busy'));
    await busyArrived;

    const closing = closeGracefully(2_000);
    const idleEnding = await idle.ended;
    expect(idleEnding.error).to.equal(undefined);
    expect(after(idleEnding.received, 'answer to /first'), 'what the idle connection received after its answer').to.equal('');
    expect(busy.closed, 'the connection of the request in flight, at the end of the drain').to.equal(false);

    release('busy');
    const busyEnding = await busy.ended;
    await closing;
    expect(busyEnding.error).to.equal(undefined);
    expect(busyEnding.received).to.match(/^HTTP\/1\.1 200 OK\r\n/);
    expect(busyEnding.received).to.match(/\r\nconnection: close\r\n/i);
    expect(busyEnding.received.endsWith('answer to /held/busy')).to.equal(true);
  });

  it('a request in flight that outlives the timeout has its connection cut at the timeout, after the drain', async () => {
    const idle = await RawConnection.open(port);
    idle.write(get('/first'));
    await idle.until('answer to /first');
    const stuck = await RawConnection.open(port);
    const stuckArrived = heldArrived('stuck');
    stuck.write(get('/held/stuck'));
    await stuckArrived;

    const closing = closeGracefully(300);
    await idle.ended;
    expect(stuck.closed, 'the connection of the request in flight, at the end of the drain').to.equal(false);
    const stuckEnding = await stuck.ended;
    await closing;
    expect(stuckEnding.received, 'what the cut request received').to.equal('');
    expect(server.listening).to.equal(false);
  });

  // RFC 9112 §9.6: a server that sends `Connection: close` must not process further requests received on that connection.
  it('of requests pipelined on an idle keep-alive connection after the close began, the first is answered with Connection: close and the others are not processed', async () => {
    const handled: string[] = [];
    server.prependListener('request', (request) => handled.push(request.url ?? ''));
    const connection = await RawConnection.open(port);
    connection.write(get('/first'));
    await connection.until('answer to /first');
    handled.length = 0;

    const closing = closeGracefully(60_000);
    connection.write(get('/second') + get('/third') + get('/fourth'));
    const ending = await connection.ended;
    await closing;

    expect(ending.error, 'the connection broke').to.equal(undefined);
    const answers = after(ending.received, 'answer to /first');
    expect(answers).to.match(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answers).to.match(/\r\nconnection: close\r\n/i);
    expect(answers.endsWith('\r\n\r\nanswer to /second')).to.equal(true);
    expect(handled, 'the requests the server processed').to.deep.equal(['/second']);
  });

  it('a request pipelined after the close began behind one in flight is not processed: the one in flight is answered with Connection: close', async () => {
    const handled: string[] = [];
    server.prependListener('request', (request) => handled.push(request.url ?? ''));
    const busy = await RawConnection.open(port);
    const busyArrived = heldArrived('busy');
    busy.write(get('/held/busy'));
    await busyArrived;

    const closing = closeGracefully(60_000);
    busy.write(get('/behind'));
    // One turn of the loop for the server to read it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    release('busy');
    const ending = await busy.ended;
    await closing;

    expect(ending.error).to.equal(undefined);
    expect(ending.received).to.match(/\r\nconnection: close\r\n/i);
    expect(ending.received.endsWith('\r\n\r\nanswer to /held/busy')).to.equal(true);
    expect(handled, 'the requests the server processed').to.deep.equal(['/held/busy']);
  });

  it("the connection of a request answered after the close began ends after its answer even when the handler removed every header (Koa's error answer does)", async () => {
    const connection = await RawConnection.open(port);
    connection.write(get('/first'));
    await connection.until('answer to /first');

    const closing = closeGracefully(60_000);
    connection.write(get('/headers-removed') + get('/behind'));
    const ending = await connection.ended;
    await closing;

    expect(ending.error).to.equal(undefined);
    expect(ending.received.endsWith('answer to /headers-removed'), 'what the connection received').to.equal(true);
    expect(ending.endedCleanly, 'the server ended the connection (FIN)').to.equal(true);
  });

  it('the drain is a tenth of the timeout, at most a quarter of a second', () => {
    expect([1_000, 5_000, 10_000, 3_600_000].map(drainMs)).to.deep.equal([100, 250, 250, 250]);
  });
});

// The closer notes every response; what it keeps must be in flight, whatever a client does with its connection.
describe('gracefulCloser, the responses it keeps', () => {
  let server: Server;
  let port: number;

  afterEach(() => {
    server.closeAllConnections();
    server.close();
  });

  it('holds no response of a pipelined request whose connection broke before its turn (answered later, never sent)', async () => {
    const PIPELINED = 20;
    const SWEEP = 128;
    const responses: WeakRef<object>[] = [];
    let arrivedOnBroken = 0;
    server = createServer((request, response) => {
      if (request.url === '/pipelined') {
        responses.push(new WeakRef(response));
        // All of them have arrived (one read of the connection): the connection breaks, as a client's reset breaks it, then each is answered.
        if (++arrivedOnBroken === PIPELINED) request.socket.destroy();
        setTimeout(() => response.end('late answer'), 5);
      } else {
        response.end(`answer to ${request.url}`);
      }
    });
    gracefulCloser(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;

    const broken = await RawConnection.open(port);
    broken.write(get('/pipelined').repeat(PIPELINED));
    await broken.ended;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(responses).to.have.length(PIPELINED);
    // Enough ordinary requests for the closer to sweep its list; answered in order, the last one last.
    const ordinary = await RawConnection.open(port);
    ordinary.write(get('/ordinary').repeat(SWEEP) + get('/last'));
    await ordinary.until('answer to /last');
    ordinary.end();
    await ordinary.ended;

    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(responses.filter((response) => response.deref() !== undefined), 'responses still reachable').to.have.length(0);
  });
});

/** A full collection, so that a WeakRef still holding its target says something still reaches it. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
