import type { Credential } from '../../domain/authentication/credential.js';

/** A TOTP code (RFC 6238) for the user named in the same request: the otp module's credential kind. */
export interface OneTimePasswordCredential extends Credential {
  readonly type: 'otp';
  readonly username: string;
  readonly code: string;
}

export function oneTimePasswordCredential(username: string, code: string): OneTimePasswordCredential {
  return { type: 'otp', id: username, username, code };
}

export function isOneTimePasswordCredential(credential: Credential): credential is OneTimePasswordCredential {
  return credential.type === 'otp';
}
