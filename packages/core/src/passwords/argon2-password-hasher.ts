import { hash, verify, verifySync, type Algorithm } from '@node-rs/argon2';
import type { PasswordHasher } from '../ports/password-hasher.js';

/** argon2id at the OWASP minimum (m = 19 MiB, t = 2, p = 1); computed on libuv's thread pool. */
// Algorithm is an ambient const enum, unreachable under verbatimModuleSyntax: 2 is Argon2id.
const ARGON2ID_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export class Argon2PasswordHasher implements PasswordHasher {
  hash(password: string): Promise<string> {
    return hash(password, ARGON2ID_OPTIONS);
  }

  async verify(phc: string, password: string): Promise<boolean> {
    try {
      return await verify(phc, password);
    } catch {
      return false;
    }
  }
}

/**
 * Why argon2 cannot verify a password against `phc`, or undefined when it can: the library parses the
 * PHC string and runs one verification (one hash's time), so a hash that passes can log its user in.
 */
export function argon2HashProblem(phc: string): string | undefined {
  try {
    verifySync(phc, '');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
