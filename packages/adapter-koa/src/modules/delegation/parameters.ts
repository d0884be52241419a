import { z } from 'zod';

/** The parameter names the module reads (declared in its cli-server declaration). */
export const DELEGATION_PARAMETERS = { provider: 'delegatedProvider', proof: 'delegatedLogin' } as const;

/** The parameter the page back from upstream posts to the login form: the proof's one-time id. */
export const DELEGATED_LOGIN = DELEGATION_PARAMETERS.proof;

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
