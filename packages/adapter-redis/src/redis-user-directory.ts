import type { AttributeMap, StoredPassword, UserDirectory, UserRecord } from '@tessera/core';
import type { RedisKeys } from './keys.js';
import type { RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/**
 * A user as stored: one hash per user (key `user:<username>`), its fields named as the configuration's
 * `users` entries, every value a string. Exactly one of `passwordHash` (argon2id PHC) and `password`;
 * `attributes` is JSON (`{"name": ["values"]}`); any other field is a module's (the otp module's
 * `otpSecret` and `requireOtp`), handed on as it is for that module to read.
 */
interface HashFields {
  passwordHash?: string;
  password?: string;
  attributes?: string;
  [moduleField: string]: string | undefined;
}

/**
 * Users in Redis, looked up by exact username (the key holds it as given, so case and spaces count),
 * shared by every node: a user an operator writes to Redis can log in on all of them. tessera itself
 * writes none (configured users are answered from the configuration).
 */
export class RedisUserDirectory implements UserDirectory {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const fields = (await guarded(() => this.client.hgetall(this.keys.user(username))).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith('WRONGTYPE')) throw new Error(`User '${username}' in Redis is not a hash`, { cause: error });
      throw error;
    })) as HashFields;
    return Object.keys(fields).length === 0 ? undefined : fromHashFields(username, fields);
  }
}

/** The fields the directory reads itself; the others are modules'. */
const USER_DIRECTORY_FIELDS = new Set(['passwordHash', 'password', 'attributes']);

// Records may be written by hand: each problem is named, never with a password or secret in the message.
function fromHashFields(username: string, fields: HashFields): UserRecord {
  const moduleFields = Object.fromEntries(Object.entries(fields).filter(([name]) => !USER_DIRECTORY_FIELDS.has(name)));
  return {
    username,
    password: storedPassword(username, fields),
    attributes: fields.attributes === undefined ? {} : attributeMap(username, fields.attributes),
    ...(Object.keys(moduleFields).length > 0 && { fields: moduleFields }),
  };
}

function storedPassword(username: string, { passwordHash, password }: HashFields): StoredPassword {
  if (passwordHash !== undefined) return { kind: 'hash', phc: passwordHash };
  if (password !== undefined) return { kind: 'plain', value: password };
  throw new Error(`User '${username}' in Redis has neither passwordHash nor password`);
}

function attributeMap(username: string, json: string): AttributeMap {
  const problem = new Error(`User '${username}' in Redis has attributes that are not a JSON object of string lists`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw problem;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw problem;
  for (const values of Object.values(parsed)) {
    if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) throw problem;
  }
  return parsed as AttributeMap;
}
