import { expect } from 'chai';
import { AuthenticationFailedError, INVALID_CREDENTIALS, usernamePasswordCredential, type Principal } from '@tessera/core';
import { describeWithSlapd } from '@tessera/testkit';
import { ACCOUNT_LOCKED, LdapCredentialHandler, type LdapSettings } from '../src/index.js';
import { directSettings, searchSettings } from './settings.js';

async function login(settings: LdapSettings, username: string, password: string): Promise<Principal> {
  return new LdapCredentialHandler(settings).authenticate(usernamePasswordCredential(username, password));
}

async function refusal(settings: LdapSettings, username: string, password: string): Promise<readonly string[]> {
  try {
    await login(settings, username, password);
  } catch (error) {
    expect(error).to.be.instanceOf(AuthenticationFailedError);
    return (error as AuthenticationFailedError).reasons;
  }
  throw new Error(`${username} was let in`);
}

describeWithSlapd('LdapCredentialHandler against OpenLDAP', (slapd) => {
  describe('search then bind', () => {
    it('logs a user in with mapped attributes, multi-valued ones kept whole', async () => {
      const principal = await login(searchSettings(slapd()), 'casuser', 'Mellon');
      expect(principal).to.deep.equal({
        id: 'casuser',
        attributes: { mail: ['casuser@example.org', 'cas.user@example.org'], displayName: ['CAS User'], affiliation: ['staff', 'faculty'] },
      });
    });

    it('takes the principal id from the configured attribute', async () => {
      const principal = await login(searchSettings(slapd(), { principalIdAttribute: 'employeeNumber' }), 'casuser', 'Mellon');
      expect(principal.id).to.equal('E-1001');
    });

    it('falls back to the username when the entry lacks the principal id attribute', async () => {
      expect((await login(searchSettings(slapd(), { principalIdAttribute: 'employeeNumber' }), 'alice', 'secret')).id).to.equal('alice');
    });

    it('searches anonymously when no service account is configured', async () => {
      expect((await login(searchSettings(slapd(), { bindDn: undefined, bindPassword: undefined }), 'alice', 'secret')).id).to.equal('alice');
    });

    it('refuses a filter that finds more than one entry rather than pick one', async () => {
      const loose = searchSettings(slapd(), { searchFilter: '(|(uid={user})(objectClass=inetOrgPerson))' });
      expect(await refusal(loose, 'alice', 'secret')).to.deep.equal([INVALID_CREDENTIALS]);
    });

    it('refuses a wrong password and an unknown user with the same reason', async () => {
      expect(await refusal(searchSettings(slapd()), 'casuser', 'wrong')).to.deep.equal([INVALID_CREDENTIALS]);
      expect(await refusal(searchSettings(slapd()), 'nobody', 'Mellon')).to.deep.equal([INVALID_CREDENTIALS]);
    });

    it('refuses empty and blank passwords before any bind (an unauthenticated bind is not a login)', async () => {
      for (const password of ['', '   ']) expect(await refusal(searchSettings(slapd()), 'casuser', password)).to.deep.equal([INVALID_CREDENTIALS]);
    });

    it('treats filter metacharacters in the username literally', async () => {
      for (const username of ['*', ')(uid=*', 'casuser)(|(uid=*', 'cas*', '*)(objectClass=*']) {
        expect(await refusal(searchSettings(slapd()), username, 'Mellon')).to.deep.equal([INVALID_CREDENTIALS]);
      }
    });

    it('refuses a locked account with its own reason, even with the right password', async () => {
      expect(await refusal(searchSettings(slapd()), 'locked', 'locked-secret')).to.deep.equal([ACCOUNT_LOCKED]);
    });
  });

  describe('direct bind', () => {
    it('binds as the DN pattern and reads the entry as the user', async () => {
      const principal = await login(directSettings(slapd()), 'alice', 'secret');
      expect(principal).to.deep.equal({ id: 'alice', attributes: { mail: ['alice@example.org'], displayName: ['Alice'] } });
    });

    it('escapes the username for the DN, so a comma in a uid still logs in', async () => {
      expect((await login(directSettings(slapd()), 'comma,user', 'comma-secret')).attributes).to.deep.equal({ displayName: ['Comma User'] });
    });

    it('refuses wrong passwords, unknown users, DN injection and a locked account', async () => {
      expect(await refusal(directSettings(slapd()), 'alice', 'wrong')).to.deep.equal([INVALID_CREDENTIALS]);
      expect(await refusal(directSettings(slapd()), 'nobody', 'secret')).to.deep.equal([INVALID_CREDENTIALS]);
      expect(await refusal(directSettings(slapd()), 'alice,ou=people', 'secret')).to.deep.equal([INVALID_CREDENTIALS]);
      expect(await refusal(directSettings(slapd()), '', 'secret')).to.deep.equal([INVALID_CREDENTIALS]);
      expect(await refusal(directSettings(slapd()), 'locked', 'locked-secret')).to.deep.equal([ACCOUNT_LOCKED]);
    });
  });
});
