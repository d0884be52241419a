import type { TesseraModule } from '../module.js';
import { throttleSchema } from './config.js';
import { registerThrottleModule } from './register.js';

const sections = { throttle: throttleSchema.prefault({}) };

/** `throttle` (docs/protocol.md §5): locks after repeated failed logins, and the validation request-rate limit. */
export const throttleModule: TesseraModule<typeof sections> = {
  name: 'throttle',
  dependencies: [],
  summary: 'locks a client IP + username after repeated failed logins (423 with Retry-After)',
  sections,
  register: registerThrottleModule,
};
