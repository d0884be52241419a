import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { runTessera } from '../support/built-server.js';
import { APP, form, login, serviceTicket } from '../support/tessera.js';
import { JWT_APP, clusterSettings, otpCode, startNode, validate, type Node } from './redis-nodes.js';

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

// Two server processes (the built CLI, each with its config file) sharing one redis-server: every
// guarantee that must hold across nodes, seen from outside.
describeWithRedis('two tessera processes sharing one Redis', (redis) => {
  let a: Node;
  let b: Node;

  before(async function () {
    this.timeout(60_000);
    const settings = clusterSettings(redis().url);
    [a, b] = await Promise.all([startNode(settings, 'node-a'), startNode(settings, 'node-b')]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a TGT created on A grants an ST on B, which validates on A', async () => {
    const tgt = await login(a.url);
    expect(tgt).to.match(/-node-a$/);
    const st = await serviceTicket(b.url, tgt);
    expect(st).to.match(/-node-b$/);
    expect(await validate(a.url, st, APP)).to.deep.include({ status: 200, user: 'casuser' });
  });

  it('the same ST validated 50 times at once on A and B succeeds exactly once', async function () {
    this.timeout(30_000);
    const st = await serviceTicket(a.url, await login(b.url));
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => validate(i % 2 === 0 ? a.url : b.url, st, APP)));
    expect(results.filter((result) => result.user === 'casuser')).to.have.length(1);
    expect(results.filter((result) => result.code === 'INVALID_TICKET')).to.have.length(49);
  });

  it("a logout on B ends the session on A: the TGT and every ST it granted, on whichever node", async () => {
    const tgt = await login(a.url);
    const [fromA, fromB] = [await serviceTicket(a.url, tgt), await serviceTicket(b.url, tgt)];
    expect((await fetch(`${b.url}/v1/tickets/${tgt}`, { method: 'DELETE' })).status).to.equal(200);
    expect((await fetch(`${a.url}/v1/tickets/${tgt}`)).status).to.equal(404);
    expect(await validate(a.url, fromA, APP)).to.deep.include({ code: 'INVALID_TICKET' });
    expect(await validate(a.url, fromB, APP)).to.deep.include({ code: 'INVALID_TICKET' });
    expect((await fetch(`${a.url}/v1/tickets/${tgt}`, form({ service: APP }))).status).to.equal(404);
  });

  it('failed logins spread over A and B lock the account on both', async () => {
    const attempt = (node: Node, password: string) => fetch(`${node.url}/v1/tickets`, form({ username: 'alice', password }));
    expect((await attempt(a, 'wrong-1')).status).to.equal(401);
    expect((await attempt(b, 'wrong-2')).status).to.equal(401);
    expect((await attempt(a, 'wrong-3')).status).to.equal(401);
    for (const node of [a, b]) {
      const locked = await attempt(node, 'secret');
      expect(locked.status, node.url).to.equal(423);
      expect(Number(locked.headers.get('retry-after'))).to.be.within(1, 60);
    }
  });

  it('a service registered through A is used on B', async () => {
    const wiki = { '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'Wiki', serviceId: '^https://wiki\\.example\\.org/.*', evaluationOrder: 5 };
    const registered = await fetch(`${a.url}/v1/services`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basic('casuser', 'Mellon') }, body: JSON.stringify(wiki) });
    expect(registered.status).to.equal(200);
    const st = await serviceTicket(b.url, await login(b.url), 'https://wiki.example.org/page');
    expect(await validate(b.url, st, 'https://wiki.example.org/page')).to.deep.include({ user: 'casuser' });
    // The CLI lists the shared registry, REST registrations included, without the memory store's caveat.
    const listed = runTessera(['services', 'list', '--config', b.configFile]);
    expect(listed.code).to.equal(0);
    expect(listed.stdout).to.match(/\n\d+ +5 +yes +Wiki +\^https:\/\/wiki/);
    expect(listed.stderr).to.equal('');
  });

  it('a JWT service ticket consumed on A is refused on B', async () => {
    const jwt = await serviceTicket(a.url, await login(b.url), JWT_APP);
    expect(jwt.split('.')).to.have.length(3);
    expect(await validate(a.url, jwt, JWT_APP)).to.deep.include({ status: 200, user: 'casuser' });
    expect(await validate(b.url, jwt, JWT_APP)).to.deep.include({ code: 'INVALID_TICKET' });
  });

  it('a one-time password used on A is refused on B', async () => {
    const code = otpCode();
    const fields = { username: 'otpuser', password: 'Otp-pass', otp: code };
    expect((await fetch(`${a.url}/v1/tickets`, form(fields))).status).to.equal(201);
    const replay = await fetch(`${b.url}/v1/tickets`, form(fields));
    expect(replay.status).to.equal(401);
  });
});
