import { z } from 'zod';

/** The parameter names the module reads (declared in its cli-server declaration). */
export const DELEGATION_PARAMETERS = { provider: 'delegatedProvider', proof: 'delegatedLogin' } as const;

/** The parameter the page back from upstream posts to the login form: the proof's one-time id. */
export const DELEGATED_LOGIN = DELEGATION_PARAMETERS.proof;

/**
 * The field the module's own page adds when it posts an upstream's cross-site answer again, now with
 * the browser's cookie (pages.ts, postAgain).
 */
export const POSTED_AGAIN = 'delegationPostedAgain';

/** The SAML 2 fields of an answer posted back (HTTP-POST binding). */
export const SAML_RESPONSE = 'SAMLResponse';
export const RELAY_STATE = 'RelayState';
/** The signature of a SAML 2 message in a query (HTTP-Redirect binding) and its algorithm. */
export const SIG_ALG = 'SigAlg';
export const SIGNATURE = 'Signature';

/** Where a SAML 2 upstream provider's service-provider metadata is published: `<path>/<provider>/metadata`. */
export const DELEGATION_SAML2_PATH = '/delegation/saml2';

/** Where an upstream sends the browser back, by provider id. */
export const DELEGATION_CALLBACK_PATH = '/delegation/callback';

/** Where an upstream sends the browser back from its logout (every provider's the same: the state says which logout it was). */
export const DELEGATION_LOGOUT_PATH = '/delegation/logout';

/** The browser's delegation cookie: the login comes back in the browser that left, and only it may post the proof. */
export const DELEGATION_COOKIE = 'TDELEGATION';

/** The delegation cookie as set: its name, path and whether it is Secure. */
export type DelegationCookie = { readonly name: string; readonly path: string; readonly secure: boolean };

/**
 * The delegation cookie for a server at `publicUrl` under `basePath`. Sent to the login form too (its
 * POST takes the proof only with the cookie of the browser that left). Over https its name is
 * `__Host-` prefixed (Secure, Path=/, no Domain), so a sibling subdomain cannot plant one; over plain
 * http (a test on localhost) it is the bare name under the base path.
 */
export function delegationCookie(publicUrl: string | undefined, basePath: string): DelegationCookie {
  if (publicUrl?.startsWith('https:') === true) return { name: `__Host-${DELEGATION_COOKIE}`, path: '/', secure: true };
  return { name: DELEGATION_COOKIE, path: basePath.replace(/\/+$/, '') || '/', secure: false };
}

/** The path the login page's buttons post the login form to: the login goes on upstream from there. */
export const DELEGATION_START_PATH = '/delegation/login';

export const PROVIDER_ID = z
  .string()
  .max(64, { error: 'a provider id is at most 64 characters' })
  .meta({ description: 'The id of the upstream identity provider to log in through (`delegation.providers[].id`).' });

export const PROOF_ID = z
  .string()
  .max(64, { error: 'a proof id is at most 64 characters' })
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()))
  .meta({ description: 'The one-time id of a login an upstream identity provider proved (the delegation module’s page back from upstream posts it).' });
