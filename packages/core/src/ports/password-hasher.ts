/** Computes and checks password hashes in PHC string form. Runs off the event loop. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** false for a wrong password or an unreadable hash; never throws for either. */
  verify(phc: string, password: string): Promise<boolean>;
}
