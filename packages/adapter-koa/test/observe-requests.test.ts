import { expect } from 'chai';
import { testServer, createTgt } from './harness.js';

interface Observed {
  readonly method: string;
  readonly route: string | undefined;
  readonly status: number;
  readonly seconds: number;
}

function observedServer() {
  const observed: Observed[] = [];
  const server = testServer({ observeRequest: (method, route, status, seconds) => observed.push({ method, route, status, seconds }) });
  return { server, observed };
}

// docs/protocol.md §10.2 — request latency per route: the hook the histogram hangs off
describe('request observer (docs/protocol.md §10.2)', () => {
  it('is told each request once: method, route pattern with the base path, final status, duration', async () => {
    const { server, observed } = observedServer();
    const tgt = await createTgt(server);
    await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: 'https://app.example.org/home' });
    expect(observed.map(({ method, route, status }) => [method, route, status])).to.deep.equal([
      ['POST', '/cas/v1/tickets', 201],
      ['POST', '/cas/v1/tickets/:tgt', 200],
    ]);
    for (const { seconds } of observed) expect(seconds).to.be.at.least(0).and.below(5);
  });

  it('sees the status the error renderer chose, and no route where none matched; never a ticket id', async () => {
    const { server, observed } = observedServer();
    await server.http.get('/cas/v1/tickets/TGT-1-secretpart-test');
    await server.http.post('/cas/v1/tickets').type('form').send({ username: 'casuser', password: 'wrong' });
    await server.http.get('/cas/nothing/here/ST-1-secretpart');
    await server.http.get('/cas/v1/tickets');
    expect(observed.map(({ method, route, status }) => [method, route, status])).to.deep.equal([
      ['GET', '/cas/v1/tickets/:id', 404],
      ['POST', '/cas/v1/tickets', 401],
      ['GET', undefined, 404],
      ['GET', undefined, 405],
    ]);
    expect(JSON.stringify(observed)).not.to.include('secretpart');
  });

  it('an observer that throws changes no answer', async () => {
    const server = testServer({
      observeRequest: () => {
        throw new Error('broken metrics');
      },
    });
    expect((await server.http.get('/cas/v1/tickets/TGT-1-x')).status).to.equal(404);
  });
});
