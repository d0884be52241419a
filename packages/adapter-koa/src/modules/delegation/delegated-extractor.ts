import { delegatedCredential } from '@tessera/core/modules/delegation';
import { credentialExtractor, type CredentialExtractor } from '../../request/credentials.js';
import { DELEGATED_LOGIN, PROOF_ID } from './parameters.js';

/** The delegation module's extractor: the proof's id the page back from upstream posts (`delegatedLogin`). */
export function delegatedExtractor(): CredentialExtractor {
  return credentialExtractor({ parameters: { [DELEGATED_LOGIN]: PROOF_ID } }, ({ parameters }) => {
    const proofId = parameters[DELEGATED_LOGIN];
    return typeof proofId === 'string' ? [delegatedCredential(proofId)] : [];
  });
}
