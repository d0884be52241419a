import type { UserRecord } from '@tessera/core';

/** A user's hash as an operator writes it (docs/storage.md, Redis: adding a user by hand), as HSET's field-value list. */
export function userFields({ password, attributes, fields = {} }: UserRecord): string[] {
  const secret = password.kind === 'hash' ? ['passwordHash', password.phc] : ['password', password.value];
  const moduleFields = Object.entries(fields).flatMap(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]);
  return [...secret, 'attributes', JSON.stringify(attributes), ...moduleFields];
}
