import { z } from 'zod';
import { DEFAULT_CONCURRENT_CHECKS } from '@tessera/core/modules/throttle';

const atLeastOne = (what: string) => z.number({ error: `expected ${what}` }).int({ error: `expected ${what}` }).min(1, { error: `expected ${what}` });

/**
 * Settings of the `throttle` module (docs/protocol.md §5). Defaults follow Keycloak's brute-force detection
 * scaled down: 5 failures a minute lock for a minute, doubling up to 15.
 */
export const throttleSchema = z
  .strictObject(
    {
      failure: z
        .strictObject(
          {
            threshold: atLeastOne('a whole number of at least 1').default(5).describe('Failures (401 answers) of one client IP + username within `rangeSeconds` that lock it. Each attempt is admitted before its password is checked: once the key has a failure in its window (or a lock since its last success), its failures plus attempts still being checked never exceed it, and one beyond waits (423). With the `oidc` module, also client authentications (`invalid_client` failures) of one client IP + OAuth `client_id` at its token endpoints, counted apart.'),
            rangeSeconds: atLeastOne('a whole number of seconds, at least 1').default(60).describe('Window in which attempts are counted; it opens at the first attempt.'),
            lockSeconds: atLeastOne('a whole number of seconds, at least 1').default(60).describe('First lock; each further lock without a success in between doubles it. Locked requests get 423 with `Retry-After` (at the `oidc` module\'s token endpoints 429 `invalid_client` with `Retry-After`).'),
            maxLockSeconds: atLeastOne('a whole number of seconds, at least 1').default(900).describe('Longest lock, however often the key was locked.'),
            concurrentChecks: atLeastOne('a whole number of at least 1')
              .default(DEFAULT_CONCURRENT_CHECKS)
              .describe('Passwords of one client IP + username checked at once, whether or not it failed (at least `threshold` are): one more waits, 423 with `Retry-After: 1`. It bounds the guesses a burst gets on a key without failures, and must exceed the logins one client sends at once for one user (a REST batch job\'s workers). OAuth clients\' authentications at once are not bounded.'),
          },
          { error: 'expected a map of settings' },
        )
        .refine((failure) => failure.maxLockSeconds >= failure.lockSeconds, {
          error: 'maxLockSeconds must be at least lockSeconds',
          path: ['maxLockSeconds'],
        })
        .prefault({}),
      validation: z
        .strictObject(
          {
            requestsPerSecond: z
              .number({ error: 'expected a positive number' })
              .positive({ error: 'expected a positive number' })
              .optional()
              .describe('Sustained validation requests per second per client IP (a token bucket); unset: no limit. Over it: 429 with `Retry-After`.'),
            burst: atLeastOne('a whole number of at least 1').default(60).describe('Validation requests a client IP may make at once after a quiet period.'),
          },
          { error: 'expected a map of settings' },
        )
        .prefault({}),
      loginForm: z
        .strictObject(
          {
            requestsPerSecond: z
              .number({ error: 'expected a positive number' })
              .positive({ error: 'expected a positive number' })
              .default(5)
              .describe('Sustained `POST /login` requests per second per client IP (a token bucket), with the `login` module. Over it: 429 with `Retry-After` and the form again, before its token or credentials are looked at.'),
            burst: atLeastOne('a whole number of at least 1').default(50).describe('`POST /login` requests a client IP may make at once after a quiet period. Raise both for many users behind one address (NAT).'),
          },
          { error: 'expected a map of settings' },
        )
        .prefault({}),
      authorization: z
        .strictObject(
          {
            requestsPerSecond: z
              .number({ error: 'expected a positive number' })
              .positive({ error: 'expected a positive number' })
              .default(5)
              .describe('Sustained authorization requests per second per client IP (a token bucket), with the `oidc` module `<basePath>/oidc/auth` and `<basePath>/oauth2.0/authorize`, with the `saml2` module its SSO endpoints (`<basePath>/idp/profile/SAML2/Redirect/SSO`, `POST/SSO`, `Unsolicited/SSO`), each of which keeps the request while a browser logs in. Over it: 429 with `Retry-After` and an error page, before the request is read.'),
            burst: atLeastOne('a whole number of at least 1').default(50).describe('Authorization requests a client IP may make at once after a quiet period. Raise both for many users behind one address (NAT).'),
          },
          { error: 'expected a map of settings' },
        )
        .prefault({}),
      memory: z
        .strictObject({ maxKeys: atLeastOne('a whole number of at least 1').default(100_000).describe('Most throttle keys (and request-rate buckets) held in memory; beyond it the least recently written key that is not locked (bucket that has refilled) is forgotten. An active lock never is: while every key is locked, new keys get 423 (new addresses 429) until one ends.') }, { error: 'expected a map of settings' })
        .prefault({}),
    },
    { error: 'expected a map of settings' },
  );

export const throttleSections = { throttle: throttleSchema.prefault({}) };

export type ThrottleConfig = z.output<typeof throttleSchema>;
