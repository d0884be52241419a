import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { HttpLogoutRequestSender } from '@tessera/cli-server/modules/login';
import type { LogoutDelivery } from '@tessera/core/modules/login';
import { RecordingEvents } from '@tessera/testkit';

/** A service's back channel that answers only when the test lets it: requests stay in flight until then. */
class HoldingReceiver {
  readonly held: ServerResponse[] = [];
  readonly arrived: string[] = [];
  maxHeld = 0;
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        this.arrived.push(request.url ?? '');
        this.held.push(response);
        this.maxHeld = Math.max(this.maxHeld, this.held.length);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  answerOne(status = 200): void {
    this.held.shift()?.writeHead(status).end();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const settings = (concurrency: number) => ({ timeoutMs: 10_000, attempts: 3, retryDelayMs: 0, expiryCheckSeconds: 60, maxPerSession: 100, concurrency });

function delivery(base: string, n: number): LogoutDelivery {
  return {
    url: `${base}/slo/${n}`,
    logoutRequest: `<samlp:LogoutRequest>${n}</samlp:LogoutRequest>`,
    session: { ticketId: `ST-${n}-aaaaaaaaaaaaaaaaaaaaaa-test`, service: `https://app.example.org/${n}`, principal: 'casuser' },
    trigger: 'logout',
  };
}

// docs/protocol.md §12.4: back-channel logout requests go through one queue per node, a bounded number in flight.
describe('HttpLogoutRequestSender: a queue with bounded concurrency', function () {
  this.timeout(20_000);
  let receiver: HoldingReceiver;
  let base: string;

  beforeEach(async () => {
    receiver = new HoldingReceiver();
    base = await receiver.start();
  });
  afterEach(() => receiver.close());

  it('has at most `concurrency` requests in flight; the others wait their turn, and each is delivered once', async () => {
    const events = new RecordingEvents();
    const sender = new HttpLogoutRequestSender(settings(2), events);
    for (let n = 1; n <= 6; n += 1) sender.send(delivery(base, n));
    await until('two requests in flight', () => receiver.held.length === 2);
    expect(sender.waiting, 'the others wait in the queue').to.equal(4);
    expect(sender.inProgress).to.equal(6);
    while (events.ofType('logout.request.delivered').length < 6) {
      await until('a request to answer', () => receiver.held.length > 0);
      receiver.answerOne();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(receiver.maxHeld).to.equal(2);
    expect([...receiver.arrived].sort()).to.deep.equal([1, 2, 3, 4, 5, 6].map((n) => `/slo/${n}`));
    expect(events.ofType('logout.request.delivered').map((event) => event.attempts)).to.deep.equal([1, 1, 1, 1, 1, 1]);
    expect(sender.inProgress).to.equal(0);
  });

  it('a retry waits its turn again, and the attempts are counted as made', async () => {
    const events = new RecordingEvents();
    const sender = new HttpLogoutRequestSender(settings(1), events);
    sender.send(delivery(base, 1));
    sender.send(delivery(base, 2));
    await until('the first request', () => receiver.held.length === 1);
    receiver.answerOne(500);
    await until('the second request, before the first one’s retry', () => receiver.arrived.length === 2);
    expect(receiver.arrived).to.deep.equal(['/slo/1', '/slo/2']);
    receiver.answerOne();
    await until('the retry', () => receiver.arrived.length === 3);
    receiver.answerOne();
    await until('both outcomes', () => events.ofType('logout.request.delivered').length === 2);
    expect(events.ofType('logout.request.delivered').map((event) => [event.service, event.attempts])).to.deep.equal([
      ['https://app.example.org/2', 1],
      ['https://app.example.org/1', 2],
    ]);
    expect(receiver.maxHeld).to.equal(1);
  });

  it('stop ends the request in flight and those waiting their turn, each reported once as stopping', async () => {
    const events = new RecordingEvents();
    const sender = new HttpLogoutRequestSender(settings(1), events);
    for (let n = 1; n <= 3; n += 1) sender.send(delivery(base, n));
    await until('the first request', () => receiver.held.length === 1);
    sender.stop();
    await until('three outcomes', () => events.ofType('logout.request.failed').length === 3);
    expect(events.ofType('logout.request.failed').map((event) => [event.service, event.reason, event.attempts])).to.have.deep.members([
      ['https://app.example.org/1', 'stopping', 1],
      ['https://app.example.org/2', 'stopping', 0],
      ['https://app.example.org/3', 'stopping', 0],
    ]);
    expect(receiver.arrived).to.deep.equal(['/slo/1']);
    expect(sender.inProgress).to.equal(0);
    await sender.fewerWaitingThan(1);
  });
});
