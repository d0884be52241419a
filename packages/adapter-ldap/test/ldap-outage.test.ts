import { expect } from 'chai';
import { createServer, type Server, type Socket } from 'node:net';
import { StoreUnavailableError, usernamePasswordCredential } from '@tessera/core';
import { describeWithSlapd } from '@tessera/testkit';
import { DIRECTORY_UNAVAILABLE, LdapCredentialHandler, type LdapSettings } from '../src/index.js';
import { searchSettings } from './settings.js';

async function outcome(settings: LdapSettings, password = 'Mellon'): Promise<unknown> {
  return new LdapCredentialHandler(settings).authenticate(usernamePasswordCredential('casuser', password)).catch((error: unknown) => error);
}

describeWithSlapd('LdapCredentialHandler when the directory is unwell', (slapd) => {
  it('answers StoreUnavailableError while slapd is stopped, and logs in again once it is back', async () => {
    await slapd().stop();
    try {
      const failure = await outcome(searchSettings(slapd()));
      expect(failure).to.be.instanceOf(StoreUnavailableError);
      expect((failure as Error).message).to.equal(DIRECTORY_UNAVAILABLE);
    } finally {
      await slapd().start();
    }
    expect(await outcome(searchSettings(slapd()))).to.have.property('id', 'casuser');
  });

  it('answers StoreUnavailableError when the service account is refused (a configuration fault, not a failed login)', async () => {
    expect(await outcome(searchSettings(slapd(), { bindPassword: 'not-the-reader-password' }))).to.be.instanceOf(StoreUnavailableError);
  });

  describe('a directory that accepts connections but never answers', () => {
    let silent: Server;
    const sockets: Socket[] = [];
    before((done) => {
      silent = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1', done);
    });
    after((done) => {
      for (const socket of sockets) socket.destroy();
      silent.close(() => done());
    });

    it('gives up after the operation timeout with StoreUnavailableError', async () => {
      const address = silent.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const started = Date.now();
      const failure = await outcome(searchSettings(slapd(), { url: `ldap://127.0.0.1:${port}`, operationTimeoutMs: 300 }));
      expect(failure).to.be.instanceOf(StoreUnavailableError);
      expect(Date.now() - started).to.be.below(3000);
    });
  });
});
