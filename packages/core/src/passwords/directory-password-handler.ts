import { hash, timingSafeEqual } from 'node:crypto';
import { INVALID_CREDENTIALS } from '../domain/authentication/authentication.js';
import { isUsernamePasswordCredential, type Credential } from '../domain/authentication/credential.js';
import type { Principal } from '../domain/authentication/principal.js';
import { AuthenticationFailedError } from '../domain/errors.js';
import type { CredentialHandler } from '../ports/credential-handler.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { StoredPassword, UserDirectory } from '../ports/user-directory.js';

/**
 * Username + password against a user directory. Unknown users still cost one hash verification,
 * so timing does not tell which usernames exist.
 */
export class DirectoryPasswordHandler implements CredentialHandler {
  private decoy: Promise<string> | undefined;
  /** The digest of each stored plain password seen, hashed once: a directory hands out the same record at every login. */
  private readonly plainDigests = new WeakMap<StoredPassword, Buffer>();

  constructor(
    readonly name: string,
    private readonly directory: UserDirectory,
    private readonly hasher: PasswordHasher,
  ) {}

  supports(credential: Credential): boolean {
    return isUsernamePasswordCredential(credential);
  }

  async authenticate(credential: Credential): Promise<Principal> {
    if (!isUsernamePasswordCredential(credential)) throw new AuthenticationFailedError([INVALID_CREDENTIALS]);
    const user = await this.directory.findByUsername(credential.username);
    if (!user) {
      await this.hasher.verify(await this.decoyHash(), credential.password);
      throw new AuthenticationFailedError([INVALID_CREDENTIALS]);
    }
    if (!(await this.matches(user.password, credential.password))) {
      throw new AuthenticationFailedError([INVALID_CREDENTIALS]);
    }
    return { id: user.username, attributes: user.attributes };
  }

  private matches(stored: StoredPassword, candidate: string): Promise<boolean> {
    if (stored.kind === 'hash') return this.hasher.verify(stored.phc, candidate);
    let expected = this.plainDigests.get(stored);
    if (expected === undefined) this.plainDigests.set(stored, (expected = digest(stored.value)));
    return Promise.resolve(timingSafeEqual(expected, digest(candidate)));
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= this.hasher.hash('decoy password for unknown users');
    return this.decoy;
  }
}

/** One-shot hashing: no Hash object per call (about twice as fast as createHash on the login path). */
function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}
