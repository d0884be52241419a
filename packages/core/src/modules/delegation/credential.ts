import type { Credential } from '../../domain/authentication/credential.js';

/** The delegation module's credential kind: a login an upstream provider proved, posted back to the login form. */
export const DELEGATED_CREDENTIAL_TYPE = 'delegated';

/** The proof's id (a random one-time value, never shown: its shown id is the type's name). */
export interface DelegatedCredential extends Credential {
  readonly type: typeof DELEGATED_CREDENTIAL_TYPE;
  readonly proofId: string;
}

export function delegatedCredential(proofId: string): DelegatedCredential {
  return { type: DELEGATED_CREDENTIAL_TYPE, id: DELEGATED_CREDENTIAL_TYPE, proofId };
}

export function isDelegatedCredential(credential: Credential): credential is DelegatedCredential {
  return credential.type === DELEGATED_CREDENTIAL_TYPE && 'proofId' in credential;
}
