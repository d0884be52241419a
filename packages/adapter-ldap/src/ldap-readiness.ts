import type { ReadinessCheck } from '@tessera/core';
import { LdapConnection } from './ldap-connection.js';
import type { LdapSettings } from './ldap-settings.js';

/** The root DSE (RFC 4512 §5.1): every LDAP v3 server publishes it, anonymous clients included. */
const ROOT_DSE = '';

/**
 * Readiness of the LDAP handler's directory, as a login would reach it (TLS and StartTLS included):
 * with a service account, its bind must succeed, or every search-mode login would fail; without one,
 * the directory must answer an anonymous read of its root DSE. Each step is bounded by the configured
 * connect and operation timeouts; every failure is StoreUnavailableError.
 */
export class LdapReadinessCheck implements ReadinessCheck {
  readonly name = 'ldap';

  constructor(private readonly settings: LdapSettings) {}

  async check(): Promise<void> {
    const connection = await LdapConnection.open(this.settings);
    try {
      const { bindDn, bindPassword } = this.settings;
      if (bindDn !== undefined && bindPassword !== undefined) await connection.bindServiceAccount(bindDn, bindPassword);
      else await connection.search(ROOT_DSE, 'base', '(objectClass=*)', ['supportedLDAPVersion']);
    } finally {
      await connection.close();
    }
  }
}
