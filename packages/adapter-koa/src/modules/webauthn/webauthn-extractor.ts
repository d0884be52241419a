import { webAuthnAssertionCredential } from '@tessera/core/modules/webauthn';
import { credentialExtractor, type CredentialExtractor } from '../../request/credentials.js';
import { CHALLENGE_ID, RESPONSE, WEBAUTHN_PARAMETERS } from './parameters.js';

/**
 * The webauthn module's extractor: a passkey's answer (`webauthnResponse`) with the id of the challenge
 * it answers (`webauthnChallenge`), as the login page's passkey button posts them. Without both, none.
 * An answer that is no JSON still makes a credential, which its handler refuses (401, not a missing one).
 */
export function webAuthnExtractor(): CredentialExtractor {
  return credentialExtractor({ parameters: { [WEBAUTHN_PARAMETERS.response]: RESPONSE, [WEBAUTHN_PARAMETERS.challenge]: CHALLENGE_ID } }, ({ parameters }) => {
    const response = parameters[WEBAUTHN_PARAMETERS.response];
    const challengeId = parameters[WEBAUTHN_PARAMETERS.challenge];
    if (typeof response !== 'string' || typeof challengeId !== 'string') return [];
    return [webAuthnAssertionCredential(challengeId, parsed(response))];
  });
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
