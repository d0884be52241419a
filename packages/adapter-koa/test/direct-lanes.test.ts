import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import type { HttpModule } from '../src/index.js';
import { createTgt, testServer } from './harness.js';

interface Observed {
  readonly method: string;
  readonly route: string | undefined;
  readonly status: number;
}

/** A module whose lane takes GET /cas/lane/...: answers 200 `lane`, or rejects for /cas/lane/broken (a lane breaking its promise). */
function laneModule(taken: string[]): HttpModule {
  const mine = (request: IncomingMessage) => request.method === 'GET' && (request.url ?? '').startsWith('/cas/lane/');
  return {
    name: 'lane',
    directLane: () => ({
      serve(request, response) {
        if (!mine(request)) return undefined;
        taken.push(request.url ?? '');
        if (request.url === '/cas/lane/broken') return Promise.reject(new Error('lane broke'));
        response.writeHead(200, { 'content-type': 'text/plain' }).end('lane');
        return Promise.resolve();
      },
      settled: (request) => (request.url === '/cas/lane/broken' ? undefined : '/cas/lane/:name'),
    }),
  };
}

// A module's direct lane answers its requests on the listener, before the app (the OIDC provider's hot paths).
describe('direct lanes', () => {
  function server() {
    const observed: Observed[] = [];
    const taken: string[] = [];
    const built = testServer({ modules: () => [laneModule(taken)], observeRequest: (method, route, status) => observed.push({ method, route, status }) });
    return { ...built, observed, taken };
  }

  it('a request the lane takes is its own, timed for the metrics under the route it names', async () => {
    const { http, observed, taken } = server();
    const answer = await http.get('/cas/lane/one?x=1');
    expect([answer.status, answer.text]).to.deep.equal([200, 'lane']);
    expect(taken).to.deep.equal(['/cas/lane/one?x=1']);
    expect(observed).to.deep.equal([{ method: 'GET', route: '/cas/lane/:name', status: 200 }]);
  });

  it('every other request goes to the app, as before', async () => {
    const { observed, taken, ...built } = server();
    await createTgt(built);
    expect((await built.http.post('/cas/lane/one')).status).to.equal(404);
    expect(taken).to.deep.equal([]);
    expect(observed.map(({ route, status }) => [route, status])).to.deep.equal([
      ['/cas/v1/tickets', 201],
      [undefined, 404],
    ]);
  });

  it('a lane that rejects is a server error: 500, reported, timed, and the server answers the next request', async () => {
    const { http, events, observed } = server();
    const answer = await http.get('/cas/lane/broken');
    expect(answer.status).to.equal(500);
    expect(observed).to.deep.equal([{ method: 'GET', route: undefined, status: 500 }]);
    expect(answer.text).not.to.include('lane broke');
    const reported = events.events.filter((event) => event.type === 'server.error');
    expect(reported).to.have.length(1);
    expect((await http.get('/cas/lane/again')).status).to.equal(200);
  });
});
