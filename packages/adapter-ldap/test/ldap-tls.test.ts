import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { StoreUnavailableError, usernamePasswordCredential } from '@tessera/core';
import { describeWithSlapd } from '@tessera/testkit';
import { LdapCredentialHandler, type LdapSettings } from '../src/index.js';
import { searchSettings } from './settings.js';

async function outcome(settings: LdapSettings): Promise<unknown> {
  return new LdapCredentialHandler(settings).authenticate(usernamePasswordCredential('casuser', 'Mellon')).catch((error: unknown) => error);
}

describeWithSlapd(
  'LdapCredentialHandler over TLS',
  (slapd) => {
    const ca = () => readFileSync(slapd().tls!.caFile, 'utf8');

    it('logs in over ldaps:// trusting the configured CA', async () => {
      expect(await outcome(searchSettings(slapd(), { url: slapd().ldapsUrl, ca: ca() }))).to.have.property('id', 'casuser');
    });

    it('logs in over ldap:// upgraded with StartTLS, trusting the configured CA', async () => {
      expect(await outcome(searchSettings(slapd(), { startTls: true, ca: ca() }))).to.have.property('id', 'casuser');
    });

    it('refuses a directory whose certificate the CA did not sign: 503, no password sent', async () => {
      expect(await outcome(searchSettings(slapd(), { url: slapd().ldapsUrl }))).to.be.instanceOf(StoreUnavailableError);
      expect(await outcome(searchSettings(slapd(), { startTls: true }))).to.be.instanceOf(StoreUnavailableError);
    });
  },
  { tls: true },
);
