import { z } from 'zod';
import { section } from '../../config/setting-schemas.js';

export const otpSections = {
  otp: section({
    parameter: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, { error: 'expected a parameter name' })
      .default('otp')
      .describe('Request parameter carrying the TOTP code, next to `username` and `password`; not one tessera reads already. Its value is kept out of every log line.'),
  }).prefault({}),
};
