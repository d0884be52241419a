import { expect } from 'chai';
import { describeWithSlapd, ldapSeed } from '@tessera/testkit';
import type { Tessera } from '../support/tessera.js';
import { postForm, startWithLdap } from './ldap-support.js';

// handler order, direct bind, and a directory that goes away and comes back
describeWithSlapd('LDAP with the configured users, direct bind, and outages', (slapd) => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startWithLdap(slapd(), ['config-users', 'ldap'], {
      mode: 'direct',
      dnPattern: `uid={user},${ldapSeed.PEOPLE}`,
      bindDn: undefined,
      bindPassword: undefined,
      searchBase: undefined,
    });
  });
  after(async () => {
    await tessera?.close();
  });

  async function handlerFor(username: string, password: string): Promise<string[]> {
    const answer = await postForm(`${tessera.url}/v1/users`, { username, password }, 'application/json');
    expect(answer.status, answer.body).to.equal(200);
    return Object.keys((JSON.parse(answer.body) as { authentication: { successes: object } }).authentication.successes);
  }

  it('tries the handlers in order: configured users first, then the directory (direct bind, escaped DN)', async () => {
    expect(await handlerFor('alice', 'secret')).to.deep.equal(['config-users']);
    expect(await handlerFor('comma,user', 'comma-secret')).to.deep.equal(['ldap']);
  });

  it('answers 503 with a clear body while the directory is down, never 401, and logs in again once it is back', async () => {
    await slapd().stop();
    try {
      const down = await postForm(`${tessera.url}/v1/tickets`, { username: 'comma,user', password: 'comma-secret' });
      expect(down.status).to.equal(503);
      expect(down.body).to.equal('A service the server depends on is unavailable; please try again later.');
      expect(tessera.logs.some((line) => line.includes('The user directory (LDAP) cannot be reached'))).to.be.true;
      expect(tessera.logs.join('\n')).not.to.contain('comma-secret');
      const users = await postForm(`${tessera.url}/v1/users`, { username: 'comma,user', password: 'wrong' }, 'application/json');
      expect(users.status).to.equal(503);
      // A configured user does not need the directory.
      expect(await handlerFor('alice', 'secret')).to.deep.equal(['config-users']);
    } finally {
      await slapd().start();
    }
    const back = await postForm(`${tessera.url}/v1/tickets`, { username: 'comma,user', password: 'comma-secret' });
    expect(back.status).to.equal(201);
  });
});
