import { z } from 'zod';

const text = (what: string) => z.string({ error: `expected ${what}` }).min(1, { error: `expected ${what}` });
const milliseconds = z.number({ error: 'expected a number of milliseconds from 1 to 600000' }).int({ error: 'expected a whole number of milliseconds' }).min(1).max(600_000);

/** Settings of the `ldap` handler; required ones are checked by ldapProblems, only when the handler is listed. */
export const ldapSchema = z.strictObject(
  {
    url: z
      .string({ error: 'expected an LDAP URL' })
      .regex(/^ldaps?:\/\/[^/?#\s]+\/?$/i, { error: 'expected ldap://host:port or ldaps://host:port' })
      .optional()
      .describe('Directory to log users in against, e.g. `ldaps://ldap.example.org:636`. Required when `authentication.handlers` lists `ldap`.'),
    mode: z
      .enum(['search', 'direct'], { error: 'expected search or direct' })
      .default('search')
      .describe('`search`: find the user with `searchFilter` (as `bindDn`, or anonymously), then bind as them; `direct`: bind as `dnPattern`.'),
    bindDn: text('a DN').optional().describe('Service account that searches for users (`search` mode); set together with `bindPassword`.'),
    bindPassword: text('a password').optional().describe('Password of `bindDn`.'),
    searchBase: text('a DN').optional().describe('Where users are searched for, e.g. `ou=people,dc=example,dc=org`. Required in `search` mode.'),
    searchFilter: z
      .string({ error: 'expected a filter' })
      .regex(/^\(.*\{user\}.*\)$/, { error: 'expected a parenthesized filter containing {user}, such as (uid={user})' })
      .default('(uid={user})')
      .describe('Filter finding exactly one user; `{user}` is the username, escaped (RFC 4515). Active Directory: `(sAMAccountName={user})`.'),
    dnPattern: z
      .string({ error: 'expected a DN pattern' })
      .regex(/^(?=.*\{user\})(?=.*=)/, { error: 'expected a DN containing {user}, such as uid={user},ou=people,dc=example,dc=org' })
      .optional()
      .describe('DN a user binds as in `direct` mode; `{user}` is the username, escaped (RFC 4514). Required in `direct` mode.'),
    startTls: z.boolean({ error: 'expected true or false' }).default(false).describe('Upgrade an `ldap://` connection with StartTLS before any bind.'),
    caFile: text('a file path').optional().describe('PEM file of the CA that signed the directory certificate (LDAPS and StartTLS); the system CAs otherwise.'),
    connectTimeoutMs: milliseconds.default(5000).describe('How long to wait for the TCP (and TLS) connection; past it the login answers 503.'),
    operationTimeoutMs: milliseconds.default(5000).describe('How long each bind or search may take; past it the login answers 503.'),
    attributes: z
      .record(text('an LDAP attribute name'), text('a principal attribute name'), { error: 'expected a map of LDAP attribute names to principal attribute names' })
      .default({})
      .meta({ defaultText: '`{}`' })
      .describe('LDAP attribute → principal attribute, e.g. `{ mail: mail, memberOf: groups }`; every value is kept. Only these are released.'),
    principalIdAttribute: text('an LDAP attribute name').optional().describe('Principal id from this attribute (first value); the username as typed otherwise.'),
    lockedAttribute: text('an LDAP attribute name')
      .default('pwdAccountLockedTime')
      .describe('An entry holding any value of this attribute is refused as locked (401) without trying its password (OpenLDAP ppolicy sets `pwdAccountLockedTime`).'),
  },
  { error: 'expected a map of settings' },
);

export type LdapConfig = z.output<typeof ldapSchema>;

export interface LdapProblem {
  readonly path: string;
  readonly message: string;
}

/** What a listed `ldap` handler still lacks: checked across settings, each problem naming its setting. */
export function ldapProblems(ldap: LdapConfig): LdapProblem[] {
  const problems: LdapProblem[] = [];
  if (ldap.url === undefined) problems.push({ path: 'url', message: 'is required when authentication.handlers lists ldap' });
  if (ldap.mode === 'search' && ldap.searchBase === undefined) problems.push({ path: 'searchBase', message: 'is required in search mode' });
  if (ldap.mode === 'direct' && ldap.dnPattern === undefined) problems.push({ path: 'dnPattern', message: 'is required in direct mode' });
  if ((ldap.bindDn === undefined) !== (ldap.bindPassword === undefined)) {
    problems.push({ path: ldap.bindDn === undefined ? 'bindDn' : 'bindPassword', message: 'set bindDn and bindPassword together' });
  }
  if (ldap.startTls && ldap.url?.toLowerCase().startsWith('ldaps:')) problems.push({ path: 'startTls', message: 'an ldaps:// URL is already TLS; use ldap:// with startTls' });
  return problems;
}
