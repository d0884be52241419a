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
  /**
   * The SAML 1.1 authentication method (SAML 1.1 core §7.1) an assertion of /samlValidate names for a
   * login whose first credential is of this kind; without one, the method is unspecified.
   */
  readonly samlAuthenticationMethod?: string;
  /**
   * The authentication method reference (RFC 8176) an OpenID Connect ID token's `amr` names for a login
   * that proved a credential of this kind; without one, the kind's type stands there.
   */
  readonly amr?: string;
}

/** The kind the central authentication reads on every credential-taking route. */
export const CENTRAL_CREDENTIAL_KINDS: readonly CredentialKind[] = [{ type: 'usernamePassword', provesUsername: true, samlAuthenticationMethod: 'urn:oasis:names:tc:SAML:1.0:am:password', amr: 'pwd' }];

/** The SAML 1.1 authentication method of each kind that declares one, by its type. */
export function samlAuthenticationMethods(kinds: readonly CredentialKind[]): Record<string, string> {
  return Object.fromEntries(kinds.flatMap(({ type, samlAuthenticationMethod }) => (samlAuthenticationMethod === undefined ? [] : [[type, samlAuthenticationMethod]])));
}

/** The `amr` value (RFC 8176) of each kind that declares one, by its type. */
export function authenticationMethodReferences(kinds: readonly CredentialKind[]): Record<string, string> {
  return Object.fromEntries(kinds.flatMap(({ type, amr }) => (amr === undefined ? [] : [[type, amr]])));
}
