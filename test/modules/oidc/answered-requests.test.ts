import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import type { Tessera } from '../../support/tessera.js';
import { CLIENT_ID, CLIENT_SECRET, startOidc } from './support.js';

/** Whether `value` is a Koa context (the provider's app makes one per request). */
function isKoaContext(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'app' in value && 'req' in value && 'res' in value;
}

/** The Koa contexts an answered request still refers to by a property of its own (a symbol's included). */
function contextsHeldBy(request: IncomingMessage): unknown[] {
  const keys = [...Object.getOwnPropertyNames(request), ...Object.getOwnPropertySymbols(request)];
  return keys.map((key) => (request as unknown as Record<PropertyKey, unknown>)[key]).filter(isKoaContext);
}

// docs/performance.md (seventh pass): graceful shutdown keeps each response until a later sweep, so a
// request that still referred to the provider's context once answered kept that whole context (its
// entities, Koa's request and response) alive through the garbage collections in between.
describe("oidc: a request the provider answered keeps no reference to the provider's context", () => {
  let tessera: Tessera;
  const seen: IncomingMessage[] = [];
  const note = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    if (request.url?.includes('/oidc/') === true) seen.push(request);
  };
  before(async () => {
    tessera = await startOidc();
    subscribe('http.server.request.start', note);
  });
  after(async () => {
    unsubscribe('http.server.request.start', note);
    await tessera.close();
  });

  it('discovery, JWKS, a refused userinfo and a refused token request', async () => {
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    const answers = [
      await fetch(`${tessera.url}/oidc/.well-known/openid-configuration`),
      await fetch(`${tessera.url}/oidc/jwks`),
      await fetch(`${tessera.url}/oidc/me`, { headers: { authorization: 'Bearer not-a-token' } }),
      await fetch(`${tessera.url}/oidc/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=not-a-code&redirect_uri=https%3A%2F%2Frp.example.org%2Fcallback' }),
    ];
    for (const answer of answers) await answer.arrayBuffer();
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 401, 400]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).to.have.length(4);
    expect(seen.map(contextsHeldBy)).to.deep.equal([[], [], [], []]);
  });
});
