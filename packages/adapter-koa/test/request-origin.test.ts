import { expect } from 'chai';
import type { RequestOrigin } from '@tessera/core';
import { APP, CASUSER, createTgt, grantSt, testServer, type TestServer } from './harness.js';

/** Each event's type with the origin it was reported with. */
function reported(server: TestServer): [string, RequestOrigin | undefined][] {
  return server.events.events.map((event) => [event.type, server.events.origins.get(event)]);
}

// docs/architecture.md §6 — "from which address": each use case is handed the origin of the request behind it
describe('request origin of the events (docs/architecture.md §6)', () => {
  it('events of one request share its origin: address, route pattern and one request id; another request has another id', async () => {
    const server = testServer();
    const tgt = await createTgt(server);
    const st = await grantSt(server, tgt);
    await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: st });
    await server.http.delete(`/cas/v1/tickets/${tgt}`);
    const events = reported(server);
    expect(events.map(([type, origin]) => [type, origin?.clientAddress, origin?.endpoint])).to.deep.equal([
      ['authentication.succeeded', '127.0.0.1', 'POST /cas/v1/tickets'],
      ['ticket.created', '127.0.0.1', 'POST /cas/v1/tickets'],
      ['ticket.created', '127.0.0.1', 'POST /cas/v1/tickets/:tgt'],
      ['ticket.validated', '127.0.0.1', 'GET /cas/p3/serviceValidate'],
      ['ticket.destroyed', '127.0.0.1', 'DELETE /cas/v1/tickets/:id'],
    ]);
    const ids = events.map(([, origin]) => origin?.requestId);
    expect(ids[0]).to.be.a('string').and.equal(ids[1]);
    expect(new Set(ids).size).to.equal(4);
  });

  it('the address is the TCP peer unless trustProxy, then the last X-Forwarded-For entry; a throttle lock has it too', async () => {
    for (const [trustProxy, address] of [[false, '127.0.0.1'], [true, '198.51.100.2']] as const) {
      const server = testServer({ options: { trustProxy }, throttle: { threshold: 1, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 60 } });
      await server.http.post('/cas/v1/tickets').set('X-Forwarded-For', '203.0.113.7, 198.51.100.2').type('form').send({ ...CASUSER, password: 'nope' });
      expect(reported(server).map(([type, origin]) => [type, origin?.clientAddress]), `trustProxy ${trustProxy}`).to.deep.equal([
        ['authentication.failed', address],
        ['authentication.throttled', address],
      ]);
    }
  });
});
