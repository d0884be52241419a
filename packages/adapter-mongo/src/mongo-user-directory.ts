import type { Collection } from 'mongodb';
import type { AttributeMap, StoredPassword, UserDirectory, UserRecord } from '@tessera/core';
import { guarded } from './unavailable.js';

/** A user as stored, in the configuration's shape: exactly one of `passwordHash` (argon2id PHC) and `password`. */
export interface UserDocument {
  username: string;
  passwordHash?: string;
  password?: string;
  attributes: AttributeMap;
}

/** Users in MongoDB (a `users` collection, username unique), looked up by exact username. */
export class MongoUserDirectory implements UserDirectory {
  constructor(private readonly users: Collection<UserDocument>) {}

  async createIndexes(): Promise<void> {
    await guarded(() => this.users.createIndex({ username: 1 }, { name: 'username_unique', unique: true }));
  }

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const found = await guarded(() => this.users.findOne({ username }));
    return found === null ? undefined : fromUserDocument(found);
  }

  /** Writes each user, replacing the one with the same username; users not named are left alone. */
  async upsert(users: readonly UserRecord[]): Promise<void> {
    for (const user of users) {
      await guarded(() => this.users.replaceOne({ username: user.username }, toUserDocument(user), { upsert: true }));
    }
  }
}

function toUserDocument({ username, password, attributes }: UserRecord): UserDocument {
  return password.kind === 'hash' ? { username, passwordHash: password.phc, attributes } : { username, password: password.value, attributes };
}

function fromUserDocument(document: UserDocument): UserRecord {
  return { username: document.username, password: storedPassword(document), attributes: document.attributes ?? {} };
}

function storedPassword({ username, passwordHash, password }: UserDocument): StoredPassword {
  if (typeof passwordHash === 'string') return { kind: 'hash', phc: passwordHash };
  if (typeof password === 'string') return { kind: 'plain', value: password };
  throw new Error(`User '${username}' in MongoDB has neither passwordHash nor password`);
}
