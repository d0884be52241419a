import { expect } from 'chai';
import { StoreUnavailableError } from '@tessera/core';
import { describeWithSlapd } from '@tessera/testkit';
import { LdapReadinessCheck, type LdapSettings } from '../src/index.js';
import { directSettings, searchSettings } from './settings.js';

async function failureOf(settings: LdapSettings): Promise<unknown> {
  return new LdapReadinessCheck(settings).check().then(
    () => expect.fail('expected the check to fail'),
    (error: unknown) => error,
  );
}

// docs/protocol.md §10.1 — the directory as a component of /health/ready
describeWithSlapd('LdapReadinessCheck (docs/protocol.md §10.1)', (slapd) => {
  it('passes when the service account binds, under the component name ldap', async () => {
    const check = new LdapReadinessCheck(searchSettings(slapd()));
    expect(check.name).to.equal('ldap');
    await check.check();
  });

  it('passes without a service account when the directory answers an anonymous read of its root DSE', async () => {
    await new LdapReadinessCheck(directSettings(slapd())).check();
  });

  it('fails when the service account is refused: search-mode logins would all fail', async () => {
    expect(await failureOf(searchSettings(slapd(), { bindPassword: 'not-the-reader-password' }))).to.be.instanceOf(StoreUnavailableError);
  });

  it('fails while the directory is stopped, and passes again once it is back', async () => {
    await slapd().stop();
    try {
      expect(await failureOf(searchSettings(slapd()))).to.be.instanceOf(StoreUnavailableError);
      expect(await failureOf(directSettings(slapd()))).to.be.instanceOf(StoreUnavailableError);
    } finally {
      await slapd().start();
    }
    await new LdapReadinessCheck(searchSettings(slapd())).check();
  });
});
