import { delegatedCredential } from '@tessera/core/modules/delegation';
import { z } from 'zod';
import { credentialExtractor, type CredentialExtractor } from '../../request/credentials.js';
import { DELEGATED_LOGIN, PROOF_ID } from './parameters.js';

const COOKIE = z.string().optional().meta({ description: 'The browser’s cookies: a delegated login’s proof is taken only with the delegation cookie of the browser that left for the upstream.' });

/**
 * The delegation module's extractor: the proof's id the page back from upstream posts (`delegatedLogin`),
 * with the browser's delegation cookie named `cookieName`, which the proof is bound to.
 */
export function delegatedExtractor(cookieName: string): CredentialExtractor {
  return credentialExtractor({ parameters: { [DELEGATED_LOGIN]: PROOF_ID }, headers: { cookie: COOKIE } }, ({ parameters, headers }) => {
    const proofId = parameters[DELEGATED_LOGIN];
    return typeof proofId === 'string' ? [delegatedCredential(proofId, cookieValue(headers.cookie, cookieName))] : [];
  });
}

/** The value of the cookie `name` in a Cookie header; undefined when absent. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of header?.split(';') ?? []) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}
