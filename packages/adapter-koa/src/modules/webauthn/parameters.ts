import { z } from 'zod';

/** The longest authenticator answer read (JSON text): an assertion is a few hundred bytes, a registration with attestation `none` under one kilobyte. */
export const MAX_RESPONSE_LENGTH = 16_384;

/** The parameter names the module reads (declared in its cli-server declaration). */
export const WEBAUTHN_PARAMETERS = { response: 'webauthnResponse', challenge: 'webauthnChallenge', deviceName: 'webauthnDeviceName' } as const;

/** An authenticator's answer as `@simplewebauthn/browser` encodes it; blank counts as absent, longer than MAX_RESPONSE_LENGTH is 400. */
export const RESPONSE = z
  .string()
  .max(MAX_RESPONSE_LENGTH, { error: `an authenticator's answer may be at most ${MAX_RESPONSE_LENGTH} characters` })
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value))
  .meta({ description: `A WebAuthn authenticator’s answer (AuthenticationResponseJSON or RegistrationResponseJSON, as JSON text), at most ${MAX_RESPONSE_LENGTH} characters.` });

export const CHALLENGE_ID = z
  .string()
  .max(64, { error: 'a challenge id is at most 64 characters' })
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()))
  .meta({ description: 'The id of the passkey challenge the login page was given (the webauthn module’s passkey button).' });

export const DEVICE_NAME = z
  .string()
  .max(256, { error: 'a device name is at most 256 characters' })
  .optional()
  .meta({ description: 'The name the user gives the security key being registered (cut to 64 characters).' });
