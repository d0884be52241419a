import type { TesseraModule } from '../module.js';
import { throttleSchema } from './config.js';
import { registerThrottleModule } from './register.js';

const sections = { throttle: throttleSchema.prefault({}) };

/** `throttle` (docs/protocol.md §5): locks after repeated failed logins, and the validation request-rate limit. */
export const throttleModule: TesseraModule<typeof sections> = {
  name: 'throttle',
  dependencies: [],
  sections,
  register: registerThrottleModule,
};
