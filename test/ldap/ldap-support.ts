import { ldapSeed, type Slapd } from '@tessera/testkit';
import { startTessera, type Tessera } from '../support/tessera.js';

/** `ldap.*` for the seeded directory: search-then-bind as the reader, releasing mail, cn and employeeType. */
export function ldapConfig(slapd: Slapd, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    url: slapd.url,
    bindDn: ldapSeed.READER_DN,
    bindPassword: ldapSeed.READER_PASSWORD,
    searchBase: ldapSeed.PEOPLE,
    searchFilter: '(uid={user})',
    connectTimeoutMs: 1000,
    operationTimeoutMs: 1000,
    attributes: { mail: 'mail', cn: 'displayName', employeeType: 'affiliation' },
    ...overrides,
  };
}

export function startWithLdap(slapd: Slapd, handlers: string[], ldap: Record<string, unknown> = {}): Promise<Tessera> {
  return startTessera({ authentication: { handlers }, ldap: ldapConfig(slapd, ldap) });
}

export async function postForm(url: string, fields: Record<string, string>, accept = 'text/plain'): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}
