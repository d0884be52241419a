import { readFileSync } from 'node:fs';
import { LdapCredentialHandler, LdapReadinessCheck, type LdapSettings } from '@tessera/adapter-ldap';
import { DirectoryPasswordHandler } from '@tessera/core';
import type { AuthenticationConfig, PasswordHandlerName } from './authentication-config.js';
import { configurationError } from '../config/errors.js';
import type { LdapConfig } from './ldap-config.js';
import type { Binder } from '../di.js';
import { KEYS } from '../keys.js';

/** The central authentication's settings: its handlers and the ldap handler's own. */
export interface AuthenticationSettings {
  readonly authentication: AuthenticationConfig;
  readonly ldap: LdapConfig;
}

type HandlerRegistration = (binder: Binder, settings: AuthenticationSettings) => void;

const PASSWORD_HANDLERS: Record<PasswordHandlerName, HandlerRegistration> = {
  'config-users': (binder) =>
    binder.resolved(
      KEYS.CredentialHandler,
      [KEYS.UserDirectory, KEYS.PasswordHasher],
      (directory, hasher) => new DirectoryPasswordHandler('config-users', directory, hasher),
    ),
  ldap: (binder, { ldap }) => {
    let settings: LdapSettings | undefined;
    const settingsOnce = () => (settings ??= ldapSettings(ldap));
    binder.resolved(KEYS.CredentialHandler, [], () => new LdapCredentialHandler(settingsOnce()));
    // The directory is a component of /health/ready, checked as a login reaches it.
    binder.resolved(KEYS.ReadinessCheck, [], () => new LdapReadinessCheck(settingsOnce()));
  },
};

/** Binds the username + password handlers in `authentication.handlers` order, the order they are tried in. */
export function registerPasswordHandlers(binder: Binder, settings: AuthenticationSettings): void {
  for (const name of settings.authentication.handlers) PASSWORD_HANDLERS[name](binder, settings);
}

/** The adapter's settings from `ldap.*`, already checked by the schema (ldapProblems); reads the CA file. */
function ldapSettings(ldap: LdapConfig): LdapSettings {
  const { url, searchBase } = ldap;
  if (url === undefined) throw configurationError([{ setting: 'ldap.url', problem: 'is required when authentication.handlers lists ldap' }]);
  return {
    url,
    mode: ldap.mode,
    bindDn: ldap.bindDn,
    bindPassword: ldap.bindPassword,
    searchBase: searchBase ?? '',
    searchFilter: ldap.searchFilter,
    dnPattern: ldap.dnPattern,
    startTls: ldap.startTls,
    ca: ldap.caFile === undefined ? undefined : readCa(ldap.caFile),
    connectTimeoutMs: ldap.connectTimeoutMs,
    operationTimeoutMs: ldap.operationTimeoutMs,
    attributes: ldap.attributes,
    principalIdAttribute: ldap.principalIdAttribute,
    lockedAttribute: ldap.lockedAttribute,
  };
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw configurationError([{ setting: 'ldap.caFile', problem: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
}
