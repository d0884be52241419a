import { ldapSeed, type Slapd } from '@tessera/testkit';
import type { LdapSettings } from '../src/index.js';

/** Search-then-bind against the seeded directory, releasing mail (multi-valued), cn and employeeType. */
export function searchSettings(slapd: Slapd, overrides: Partial<LdapSettings> = {}): LdapSettings {
  return {
    url: slapd.url,
    mode: 'search',
    bindDn: ldapSeed.READER_DN,
    bindPassword: ldapSeed.READER_PASSWORD,
    searchBase: ldapSeed.PEOPLE,
    searchFilter: '(uid={user})',
    startTls: false,
    connectTimeoutMs: 2000,
    operationTimeoutMs: 2000,
    attributes: { mail: 'mail', cn: 'displayName', employeeType: 'affiliation' },
    lockedAttribute: 'pwdAccountLockedTime',
    ...overrides,
  };
}

export function directSettings(slapd: Slapd, overrides: Partial<LdapSettings> = {}): LdapSettings {
  return searchSettings(slapd, { mode: 'direct', dnPattern: `uid={user},${ldapSeed.PEOPLE}`, bindDn: undefined, bindPassword: undefined, ...overrides });
}
