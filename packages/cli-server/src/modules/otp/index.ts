import { z } from 'zod';
import { section } from '../../config/setting-schemas.js';
import type { TesseraModule } from '../module.js';
import { registerOtpModule } from './register.js';

/** Parameters the REST and login routes and the x509 form extractor read: a code parameter of the same name could never be told apart. */
const ROUTE_PARAMETERS = ['username', 'password', 'service', 'TARGET', 'renew', 'token', 'cert', 'method', 'warn', 'formToken', 'confirmed'];

const sections = {
  otp: section({
    parameter: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, { error: 'expected a parameter name' })
      .refine((name) => !ROUTE_PARAMETERS.includes(name), { error: `expected a name other than ${ROUTE_PARAMETERS.join(', ')}, which tessera reads already` })
      .default('otp')
      .describe('Request parameter carrying the TOTP code, next to `username` and `password`.'),
  }).prefault({}),
};

/** `otp` (docs/protocol.md §4): TOTP codes as a second credential. */
export const otpModule: TesseraModule<typeof sections> = {
  name: 'otp',
  dependencies: ['rest'],
  sections,
  register: registerOtpModule,
};
