import { Client, InvalidCredentialsError, InvalidDNSyntaxError, NoSuchObjectError, type Entry } from 'ldapts';
import { StoreUnavailableError } from '@tessera/core';
import type { LdapSettings } from './ldap-settings.js';

export const DIRECTORY_UNAVAILABLE = 'The user directory (LDAP) cannot be reached; please try again later.';

/** A bind the directory refused because of the DN or password (not because it is unwell). */
export class BindRefusedError extends Error {}

/**
 * One short-lived client per authentication: ldapts has no pool, and a pooled connection would carry
 * the last user's bind identity into the next login. Every failure that is not a refused bind means
 * the directory is unwell (down, timing out, TLS) and becomes StoreUnavailableError (503).
 */
export class LdapConnection {
  private constructor(private readonly client: Client) {}

  static async open(settings: LdapSettings): Promise<LdapConnection> {
    const tlsOptions = settings.ca === undefined ? {} : { ca: settings.ca };
    const client = new Client({
      url: settings.url,
      connectTimeout: settings.connectTimeoutMs,
      timeout: settings.operationTimeoutMs,
      // ldapts opens TLS whenever tlsOptions is set, whatever the URL's scheme.
      ...(settings.url.startsWith('ldaps:') && { tlsOptions }),
    });
    const connection = new LdapConnection(client);
    if (settings.startTls) {
      try {
        // ldapts upgrades the socket without a host, so Node would check the certificate against "localhost".
        await client.startTLS({ ...tlsOptions, host: new URL(settings.url).hostname.replace(/^\[|\]$/g, '') });
      } catch (error) {
        await connection.close();
        throw unavailable(error);
      }
    }
    return connection;
  }

  /** Binds with a non-empty password; a wrong DN or password throws BindRefusedError. */
  async bind(dn: string, password: string): Promise<void> {
    if (password.trim() === '') throw new BindRefusedError('empty password');
    try {
      await this.client.bind(dn, password);
    } catch (error) {
      if (error instanceof InvalidCredentialsError || error instanceof InvalidDNSyntaxError || error instanceof NoSuchObjectError) {
        throw new BindRefusedError('bind refused');
      }
      throw unavailable(error);
    }
  }

  /** A refused service account is the server's misconfiguration, not a user's failure: 503, not 401. */
  async bindServiceAccount(dn: string, password: string): Promise<void> {
    try {
      await this.bind(dn, password);
    } catch (error) {
      if (error instanceof BindRefusedError) throw new StoreUnavailableError(`${DIRECTORY_UNAVAILABLE} (service account bind refused)`);
      throw error;
    }
  }

  async search(base: string, scope: 'base' | 'sub', filter: string, attributes: readonly string[]): Promise<Entry[]> {
    try {
      const { searchEntries } = await this.client.search(base, { scope, filter, attributes: [...attributes] });
      return searchEntries;
    } catch (error) {
      if (error instanceof NoSuchObjectError) return [];
      throw unavailable(error);
    }
  }

  async close(): Promise<void> {
    await this.client.unbind().catch(() => undefined);
  }
}

function unavailable(cause: unknown): StoreUnavailableError {
  return new StoreUnavailableError(DIRECTORY_UNAVAILABLE, { cause });
}
