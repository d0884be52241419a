import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { APP, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';

const uri = process.env.MONGODB_URI;

// two server processes' worth of nodes, one database. Without MONGODB_URI this registers
// nothing: the one skip line of the MongoDB suites (packages/adapter-mongo/test/real-mongo-contracts.test.ts) covers it.
if (uri !== undefined && uri !== '') {
  describe('two nodes sharing one MongoDB (MONGODB_URI)', () => {
    const nodes: Tessera[] = [];
    // Collections of their own for this run; left behind in tessera_e2e for inspection.
    const storage = { type: 'mongo', mongo: { uri, database: 'tessera_e2e', collectionPrefix: `t${randomBytes(4).toString('hex')}_` } };

    before(async () => {
      nodes.push(await startTessera({ storage, server: { host: '127.0.0.1', port: 0, nodeName: 'node-a' } }));
      nodes.push(await startTessera({ storage, server: { host: '127.0.0.1', port: 0, nodeName: 'node-b' } }));
    });
    after(() => Promise.all(nodes.map((node) => node.close())));

    it('a TGT created on node A grants an ST on node B, which validates once on node A', async () => {
      const [a, b] = nodes as [Tessera, Tessera];
      const tgt = await login(a.url);
      expect(tgt).to.match(/-node-a$/);
      const st = await serviceTicket(b.url, tgt);
      expect(st).to.match(/-node-b$/);
      const validate = () => fetch(`${a.url}/p3/serviceValidate?${new URLSearchParams({ service: APP, ticket: st }).toString()}`);
      expect(await (await validate()).text()).to.include('<cas:user>casuser</cas:user>');
      expect(await (await validate()).text()).to.include('INVALID_TICKET');
    });

    it('a logout on node B ends the session on node A', async () => {
      const [a, b] = nodes as [Tessera, Tessera];
      const tgt = await login(a.url);
      expect((await fetch(`${b.url}/v1/tickets/${tgt}`, { method: 'DELETE' })).status).to.equal(200);
      expect((await fetch(`${a.url}/v1/tickets/${tgt}`)).status).to.equal(404);
    });
  });
}
