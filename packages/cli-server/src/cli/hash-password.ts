import { Argon2PasswordHasher } from '@tessera/core';
import { readPassword } from './read-password.js';

/** `tessera hash-password`: an argon2id PHC string for a user's `passwordHash`. Returns the exit code. */
export async function hashPassword(): Promise<number> {
  const password = await readPassword(process.stdin, process.stderr);
  if (password === '') {
    process.stderr.write('tessera hash-password: no password on stdin (give it as the first line)\n');
    return 2;
  }
  process.stdout.write(`${await new Argon2PasswordHasher().hash(password)}\n`);
  return 0;
}
