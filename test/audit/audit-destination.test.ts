import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, parseConfig, startServer } from '@tessera/cli-server';
import { capturedLines, guardOutput } from '../support/log-canary.js';
import { baseConfig, form, login, startTessera } from '../support/tessera.js';
import { startBuilt } from '../support/built-server.js';
import { parsed } from './support.js';

const quiet = () => capturedLines('log of a server with an audit destination')[1];
const fromBehind = (url: string) => fetch(`${url}/v1/tickets`, { ...form({ username: 'casuser', password: 'nope' }), headers: { ...form({}).headers, 'x-forwarded-for': '203.0.113.7, 198.51.100.2' } });
const tempFile = (name: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'tessera-audit-')), name);
  guardOutput(`audit file ${file}`, () => (existsSync(file) ? readFileSync(file, 'utf8') : ''));
  return file;
};

// docs/architecture.md §6 — "from which address", and where the trail goes (audit.destination)
describe('audit trail: address and destination (docs/architecture.md §6)', function () {
  this.timeout(30_000);

  it('the address is the TCP peer; X-Forwarded-For counts only with server.trustProxy, and then its last entry', async () => {
    for (const [trustProxy, address] of [[false, '127.0.0.1'], [true, '198.51.100.2']] as const) {
      const tessera = await startTessera({ server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', trustProxy } });
      try {
        expect((await fromBehind(tessera.url)).status).to.equal(401);
        expect(parsed(tessera.audit).map((line) => [line['action'], line['address']])).to.deep.equal([['authentication.failed', address]]);
      } finally {
        await tessera.close();
      }
    }
  });

  it('a file destination is appended to, created readable by its owner only', async () => {
    const file = tempFile('audit.log');
    const server = await startServer({ config: parseConfig(baseConfig({ audit: { destination: file } })), log: quiet() });
    try {
      await login(server.url);
    } finally {
      await server.close();
    }
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(parsed(readFileSync(file, 'utf8').split('\n').filter(Boolean)).map((line) => [line['action'], line['who']])).to.deep.equal([
      ['authentication.succeeded', 'casuser'],
      ['ticket.created', 'casuser'],
    ]);
    const again = await startServer({ config: parseConfig(baseConfig({ audit: { destination: file } })), log: quiet() });
    await login(again.url).finally(() => again.close());
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).to.have.length(4);
  });

  it('off writes nothing; a file that cannot be opened stops the start naming audit.destination', async () => {
    const [lines, auditLog] = capturedLines('audit lines of a server with audit off');
    const off = await startServer({ config: parseConfig(baseConfig({ audit: { destination: 'off' } })), log: quiet(), auditLog });
    await login(off.url).finally(() => off.close());
    expect(lines).to.deep.equal([]);

    const missing = join(tempFile('x'), 'no-such-dir', 'audit.log');
    const refused = await startServer({ config: parseConfig(baseConfig({ audit: { destination: missing } })), log: quiet() }).then(
      (server) => server.close().then(() => expect.fail('expected the start to fail')),
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(ConfigurationError);
    expect((refused as Error).message).to.equal(`audit.destination: cannot open ${missing} for appending (ENOENT)`);
  });

  describe('the built server, as an operator runs it', () => {
    it('by default writes the trail to stderr, apart from the JSON log on stdout', async () => {
      const server = await startBuilt(['--port', '0']);
      try {
        await login(server.url);
      } finally {
        expect(await server.stop()).to.equal(0);
      }
      const trail = parsed(server.stderr().split('\n').filter((line) => line.startsWith('{')));
      expect(trail.map((line) => [line['audit'], line['action'], line['who'], line['address']])).to.deep.equal([
        ['authentication', 'authentication.succeeded', 'casuser', '127.0.0.1'],
        ['ticket', 'ticket.created', 'casuser', '127.0.0.1'],
      ]);
      expect(server.stdout()).to.include('"event":"ticket.created"').and.not.include('"audit":');
    });

    it('reopens its audit file on SIGHUP, so logrotate can move it away', async () => {
      const file = tempFile('audit.log');
      const config = `${file}.json`;
      writeFileSync(config, JSON.stringify(baseConfig({ server: { host: '127.0.0.1', port: 0, nodeName: 'e2e' }, audit: { destination: file } })));
      const server = await startBuilt(['--config', config]);
      try {
        await login(server.url, 'casuser');
        renameSync(file, `${file}.1`);
        server.child.kill('SIGHUP');
        while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 10));
        await login(server.url, 'alice', 'secret');
      } finally {
        expect(await server.stop()).to.equal(0);
      }
      const whoIn = (path: string) => parsed(readFileSync(path, 'utf8').split('\n').filter(Boolean)).map((line) => line['who']);
      expect(whoIn(`${file}.1`)).to.deep.equal(['casuser', 'casuser']);
      expect(whoIn(file)).to.deep.equal(['alice', 'alice']);
    });
  });
});
