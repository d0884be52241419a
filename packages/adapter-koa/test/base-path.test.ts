import { expect } from 'chai';
import { CASUSER, testServer } from './harness.js';

// docs/protocol.md §11 — the base path prefixes every route and every absolute URL the server builds
describe('the base path, however it is written', () => {
  for (const [written, prefix] of [['/cas', '/cas'], ['/cas/', '/cas'], ['/', ''], ['', '']] as const) {
    it(`"${written}": routes under "${prefix}", and the URLs the server builds name "${prefix}" once`, async () => {
      const server = testServer({ options: { basePath: written, allowedHosts: ['cas.example.org'] } });
      const login = await server.http.post(`${prefix}/v1/tickets`).set('Host', 'cas.example.org').type('form').send(CASUSER);
      expect(login.status, login.text).to.equal(201);
      expect(login.headers['location']).to.match(new RegExp(`^http://cas\\.example\\.org${prefix}/v1/tickets/TGT-`));
      const document = await server.http.get(`${prefix}/openapi.json`).set('Host', 'cas.example.org');
      expect((document.body as { servers: unknown }).servers).to.deep.equal([{ url: `http://cas.example.org${prefix}` }]);
    });
  }
});
