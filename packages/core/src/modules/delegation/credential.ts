import { createHash } from 'node:crypto';
import type { Credential, CredentialMetadata } from '../../domain/authentication/credential.js';

/** The delegation module's credential kind: a login an upstream provider proved, posted back to the login form. */
export const DELEGATED_CREDENTIAL_TYPE = 'delegated';

/**
 * The proof's id (a random one-time value, never shown). Its shown id is the kind's name and the
 * login's key, the proof id's SHA-256: what links the session this login makes (its authentication
 * keeps the shown id) to what the login kept for the upstream's logout.
 */
export interface DelegatedCredential extends Credential {
  readonly type: typeof DELEGATED_CREDENTIAL_TYPE;
  readonly proofId: string;
  /** The delegation cookie of the browser posting the proof: it must be the one of the browser that left for the upstream. */
  readonly browserKey?: string;
}

export function delegatedCredential(proofId: string, browserKey?: string): DelegatedCredential {
  return { type: DELEGATED_CREDENTIAL_TYPE, id: `${DELEGATED_CREDENTIAL_TYPE}:${delegatedLoginKey(proofId)}`, proofId, ...(browserKey !== undefined && { browserKey }) };
}

export function isDelegatedCredential(credential: Credential): credential is DelegatedCredential {
  return credential.type === DELEGATED_CREDENTIAL_TYPE && 'proofId' in credential;
}

/** The key of the login a proof proved: the proof id's SHA-256 (base64url), which shows nothing of the id. */
export function delegatedLoginKey(proofId: string): string {
  return createHash('sha256').update(proofId).digest('base64url');
}

/** The key of the delegated login among a session's credentials (as its authentication keeps them), if it has one. */
export function delegatedLoginKeyOf(credentials: readonly CredentialMetadata[]): string | undefined {
  const prefix = `${DELEGATED_CREDENTIAL_TYPE}:`;
  const found = credentials.find(({ type, id }) => type === DELEGATED_CREDENTIAL_TYPE && id.startsWith(prefix));
  return found?.id.slice(prefix.length);
}
