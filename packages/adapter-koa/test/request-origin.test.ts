import { expect } from 'chai';
import type { DomainEventType } from '@tessera/core';
import { currentRequest, type RequestOrigin } from '../src/index.js';
import { APP, CASUSER, createTgt, testServer, type ServerSetup } from './harness.js';

/** A test server whose events note the request they were reported in, as the audit trail reads it. */
function observedServer(setup: ServerSetup = {}) {
  const server = testServer(setup);
  const seen: [DomainEventType, RequestOrigin | undefined][] = [];
  const record = server.events.emit.bind(server.events);
  server.events.emit = (event) => {
    seen.push([event.type, currentRequest()]);
    record(event);
  };
  return { ...server, seen };
}

// issue 9 §4 — "from which address": the origin of the request behind each event, without core knowing HTTP
describe('currentRequest: the origin of the request being served (issue 9 §4)', () => {
  it('events of one request share its address, method, route pattern and request id; another request has another id', async () => {
    const server = observedServer();
    const tgt = await createTgt(server);
    await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP });
    const [succeeded, created, granted] = server.seen;
    expect(succeeded?.[0]).to.equal('authentication.succeeded');
    expect(succeeded?.[1]).to.include({ clientAddress: '127.0.0.1', method: 'POST', route: '/cas/v1/tickets' });
    expect(created?.[1]).to.deep.equal(succeeded?.[1]);
    expect(granted?.[1]).to.include({ route: '/cas/v1/tickets/:tgt' });
    expect(granted?.[1]?.requestId).to.be.a('string').and.not.equal(succeeded?.[1]?.requestId);
  });

  it('the address is the TCP peer unless trustProxy, then the last X-Forwarded-For entry', async () => {
    for (const [trustProxy, address] of [[false, '127.0.0.1'], [true, '198.51.100.2']] as const) {
      const server = observedServer({ options: { trustProxy } });
      await server.http.post('/cas/v1/tickets').set('X-Forwarded-For', '203.0.113.7, 198.51.100.2').type('form').send(CASUSER);
      expect(server.seen[0]?.[1]?.clientAddress, `trustProxy ${trustProxy}`).to.equal(address);
    }
  });

  it('is undefined outside a request', () => {
    expect(currentRequest()).to.equal(undefined);
  });
});
