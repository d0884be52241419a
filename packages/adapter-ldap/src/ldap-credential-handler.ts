import type { Entry } from 'ldapts';
import { AuthenticationFailedError, INVALID_CREDENTIALS, isUsernamePasswordCredential, type Credential, type CredentialHandler, type Principal } from '@tessera/core';
import { escapeDnValue, escapeFilterValue, fillTemplate } from './escape.js';
import { BindRefusedError, LdapConnection } from './ldap-connection.js';
import type { LdapSettings } from './ldap-settings.js';
import { isLocked, principalFromEntry, requestedAttributes } from './principal-from-entry.js';

export const ACCOUNT_LOCKED = 'The account is locked. Please contact your administrator.';
const EVERY_ENTRY = '(objectClass=*)';

/**
 * Username + password against an LDAP directory (CAS's LdapAuthenticationHandler). Search mode: the
 * service account finds exactly one entry with the filter, then the user binds as that entry. Direct
 * mode: the user binds as the DN pattern, then reads their own entry. Unknown users and wrong
 * passwords get the same reason; a blank password never reaches the directory.
 */
export class LdapCredentialHandler implements CredentialHandler {
  readonly name = 'ldap';

  constructor(private readonly settings: LdapSettings) {}

  supports(credential: Credential): boolean {
    return isUsernamePasswordCredential(credential);
  }

  async authenticate(credential: Credential): Promise<Principal> {
    if (!isUsernamePasswordCredential(credential)) throw new AuthenticationFailedError([INVALID_CREDENTIALS]);
    const { username, password } = credential;
    // An empty password makes an unauthenticated bind, which directories answer with success.
    if (username.trim() === '' || password.trim() === '') throw new AuthenticationFailedError([INVALID_CREDENTIALS]);
    const connection = await LdapConnection.open(this.settings);
    try {
      const entry = this.settings.mode === 'search' ? await this.searchThenBind(connection, username, password) : await this.bindDirectly(connection, username, password);
      return principalFromEntry(entry, username, this.settings);
    } catch (error) {
      if (error instanceof BindRefusedError) throw new AuthenticationFailedError([INVALID_CREDENTIALS]);
      throw error;
    } finally {
      await connection.close();
    }
  }

  private async searchThenBind(connection: LdapConnection, username: string, password: string): Promise<Entry> {
    const { bindDn, bindPassword, searchBase, searchFilter } = this.settings;
    if (bindDn !== undefined && bindPassword !== undefined) await connection.bindServiceAccount(bindDn, bindPassword);
    const filter = fillTemplate(searchFilter, username, escapeFilterValue);
    const entries = await connection.search(searchBase, 'sub', filter, requestedAttributes(this.settings));
    const entry = entries.length === 1 ? entries[0] : undefined;
    if (!entry) throw new BindRefusedError('no single entry matches');
    // Locked accounts are refused before their password is tried, so a lockout is not extended.
    if (isLocked(entry, this.settings)) throw new AuthenticationFailedError([ACCOUNT_LOCKED]);
    await connection.bind(entry.dn, password);
    return entry;
  }

  private async bindDirectly(connection: LdapConnection, username: string, password: string): Promise<Entry> {
    const dn = fillTemplate(this.settings.dnPattern ?? '', username, escapeDnValue);
    await connection.bind(dn, password);
    const [entry = { dn }] = await connection.search(dn, 'base', EVERY_ENTRY, requestedAttributes(this.settings));
    if (isLocked(entry, this.settings)) throw new AuthenticationFailedError([ACCOUNT_LOCKED]);
    return entry;
  }
}
