import type { Entry } from 'ldapts';
import type { Principal } from '@tessera/core';
import type { LdapSettings } from './ldap-settings.js';

/** Every value of an attribute as text, however the server cased its name; multi-valued stays a list. */
function valuesOf(entry: Entry, name: string): string[] {
  const key = Object.keys(entry).find((candidate) => candidate.toLowerCase() === name.toLowerCase() && candidate !== 'dn');
  const raw = key === undefined ? undefined : entry[key];
  if (raw === undefined) return [];
  const list: readonly (string | Buffer)[] = Array.isArray(raw) ? raw : [raw];
  return list.map((value) => (typeof value === 'string' ? value : value.toString('utf8')));
}

/** LDAP attributes the handler asks for: the mapped ones, the principal id, the lock marker. */
export function requestedAttributes(settings: LdapSettings): string[] {
  const names = [...Object.keys(settings.attributes), settings.principalIdAttribute, settings.lockedAttribute];
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}

export function isLocked(entry: Entry, settings: LdapSettings): boolean {
  return settings.lockedAttribute !== undefined && valuesOf(entry, settings.lockedAttribute).length > 0;
}

/** The principal: id from `principalIdAttribute` (else the username), attributes renamed by the map. */
export function principalFromEntry(entry: Entry, username: string, settings: LdapSettings): Principal {
  const attributes: Record<string, string[]> = {};
  for (const [ldapName, principalName] of Object.entries(settings.attributes)) {
    const values = valuesOf(entry, ldapName);
    if (values.length > 0) attributes[principalName] = [...(attributes[principalName] ?? []), ...values];
  }
  const id = settings.principalIdAttribute === undefined ? undefined : valuesOf(entry, settings.principalIdAttribute)[0];
  return { id: id ?? username, attributes };
}
