/**
 * A kind of credential, as the part of tessera that makes it declares it: the central username +
 * password, and each module's own kind in its declaration (`credentialKinds`). What other parts
 * need to know of a kind they do not make comes from here, never from a list of kind names.
 */
export interface CredentialKind {
  /** The credential's `type`, e.g. `otp`. */
  readonly type: string;
  /**
   * Its shown id is the username it proves (a password's, a one-time code's): once it is accepted,
   * the throttle forgets that username's failures. A certificate's subject proves no username sent beside it.
   */
  readonly provesUsername: boolean;
}

/** The kind the central authentication reads on every credential-taking route. */
export const CENTRAL_CREDENTIAL_KINDS: readonly CredentialKind[] = [{ type: 'usernamePassword', provesUsername: true }];
