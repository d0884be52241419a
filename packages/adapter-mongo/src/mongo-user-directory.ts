import type { Collection } from 'mongodb';
import type { AttributeMap, StoredPassword, UserDirectory, UserRecord } from '@tessera/core';
import type { Guarded } from './unavailable.js';

/**
 * A user as stored, in the configuration's shape: exactly one of `passwordHash` (argon2id PHC) and
 * `password`; any other field is a module's (the otp module's `otp: {secret, required}`), handed on as
 * it is for that module to read.
 */
export interface UserDocument {
  username: string;
  passwordHash?: string;
  password?: string;
  attributes: AttributeMap;
  [moduleField: string]: unknown;
}

/**
 * Users in MongoDB (a `users` collection, username unique), looked up by exact username: users added by
 * other means than tessera, which writes none (configured users are answered from the configuration).
 */
export class MongoUserDirectory implements UserDirectory {
  constructor(
    private readonly users: Collection<UserDocument>,
    private readonly guarded: Guarded,
  ) {}

  async createIndexes(): Promise<void> {
    await this.guarded(() => this.users.createIndex({ username: 1 }, { name: 'username_unique', unique: true }));
  }

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const found = await this.guarded(() => this.users.findOne({ username }));
    return found === null ? undefined : fromUserDocument(found);
  }
}

/** The fields the directory reads itself (and the document's id); the others are modules'. */
const USER_DIRECTORY_FIELDS = new Set(['_id', 'username', 'passwordHash', 'password', 'attributes']);

function fromUserDocument(document: UserDocument): UserRecord {
  const moduleFields = Object.fromEntries(Object.entries(document).filter(([name]) => !USER_DIRECTORY_FIELDS.has(name)));
  return {
    username: document.username,
    password: storedPassword(document),
    attributes: document.attributes ?? {},
    ...(Object.keys(moduleFields).length > 0 && { fields: moduleFields }),
  };
}

function storedPassword({ username, passwordHash, password }: UserDocument): StoredPassword {
  if (typeof passwordHash === 'string') return { kind: 'hash', phc: passwordHash };
  if (typeof password === 'string') return { kind: 'plain', value: password };
  throw new Error(`User '${username}' in MongoDB has neither passwordHash nor password`);
}
