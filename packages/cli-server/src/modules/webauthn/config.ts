import { z } from 'zod';
import { flag, positiveInteger, section } from '../../config/setting-schemas.js';

export const webauthnSections = {
  webauthn: section({
    passwordless: flag()
      .default(true)
      .describe('Show the “Log in with a passkey” button on the login page: a passkey with user verification logs the user in without a password.'),
    selfRegistration: flag()
      .default(false)
      .describe(
        'A user who must give `mfa-webauthn` to a service and has no second factor at all (none of any kind: a password alone never adds one beside another) registers a security key or passkey in the login, after the password (as Apereo’s device registration). False: such a user is refused or let through as the service’s `failureMode` says.',
      ),
    userVerification: z
      .enum(['required', 'preferred', 'discouraged'], { error: 'expected required, preferred or discouraged' })
      .default('preferred')
      .describe('What the second factor asks of the authenticator (a PIN or a fingerprint); `required` refuses an answer without it. The passkey login always requires it.'),
    relyingPartyName: z
      .string({ error: 'expected a name' })
      .min(1, { error: 'expected a name' })
      .default('tessera')
      .describe('The name authenticators show for this site when a key is registered. The relying party id is the host of `server.publicUrl`.'),
    challengeSeconds: positiveInteger(3600)
      .default(300)
      .describe('How long a challenge (a page asking for a key) may be answered, in seconds.'),
    maxDevicesPerUser: positiveInteger(100)
      .default(10)
      .describe('The most security keys and passkeys one user may register.'),
  }).prefault({}),
};
