import type { UserRecord } from '@tessera/core';
import type { UserDocument } from '@tessera/adapter-mongo';

/** A user as an operator inserts it into the `users` collection: the configuration's shape (docs/storage.md, MongoDB). */
export function userDocument({ username, password, attributes, fields }: UserRecord): UserDocument {
  const secret = password.kind === 'hash' ? { passwordHash: password.phc } : { password: password.value };
  return { username, ...secret, attributes, ...fields };
}
