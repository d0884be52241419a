import { z } from 'zod';
import { flag, section } from '../../config/setting-schemas.js';

export const otpSections = {
  otp: section({
    parameter: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, { error: 'expected a parameter name' })
      .default('otp')
      .describe('Request parameter carrying the TOTP code, next to `username` and `password`; not one tessera reads already. Its value is kept out of every log line.'),
    selfRegistration: flag()
      .default(false)
      .describe(
        'A user who must give `mfa-gauth` to a service and has no second factor at all (none of any kind: a password alone never adds one beside another) enrols a TOTP secret in the login, after the password: a QR code and the secret, confirmed by a first code (kept in the storage, record namespace `otp.enrolments`). False: such a user is refused or let through as the service’s `failureMode` says.',
      ),
    issuer: z
      .string({ error: 'expected a name' })
      .min(1, { error: 'expected a name' })
      .default('tessera')
      .describe('The issuer an authenticator app shows beside the user name for a secret enrolled in the login.'),
  }).prefault({}),
};
