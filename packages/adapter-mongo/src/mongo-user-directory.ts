import type { Collection } from 'mongodb';
import type { AttributeMap, OtpSetup, StoredPassword, UserDirectory, UserRecord } from '@tessera/core';
import type { Guarded } from './unavailable.js';

/** A user as stored, in the configuration's shape: exactly one of `passwordHash` (argon2id PHC) and `password`. */
export interface UserDocument {
  username: string;
  passwordHash?: string;
  password?: string;
  attributes: AttributeMap;
  /** TOTP secret (base32) and whether the user must present a code; absent for users without one. */
  otp?: OtpSetup;
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

function fromUserDocument(document: UserDocument): UserRecord {
  const { otp } = document;
  return {
    username: document.username,
    password: storedPassword(document),
    attributes: document.attributes ?? {},
    ...(otp === undefined || otp === null ? {} : { otp: { secret: otp.secret, required: otp.required } }),
  };
}

function storedPassword({ username, passwordHash, password }: UserDocument): StoredPassword {
  if (typeof passwordHash === 'string') return { kind: 'hash', phc: passwordHash };
  if (typeof password === 'string') return { kind: 'plain', value: password };
  throw new Error(`User '${username}' in MongoDB has neither passwordHash nor password`);
}
