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

/** The browser's delegation cookie: the login comes back in the browser that left. */
export const DELEGATION_COOKIE = 'TDELEGATION';

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
