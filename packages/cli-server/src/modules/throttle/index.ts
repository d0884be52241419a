import type { TesseraModule } from '../module.js';
import { throttleSections } from './config.js';
import { registerThrottleModule } from './register.js';
import { throttleEvents } from './events.js';

/** `throttle` (docs/protocol.md §5): locks after repeated failed logins, and the validation request-rate limit. */
export const throttleModule: TesseraModule<typeof throttleSections> = {
  name: 'throttle',
  comparisonRows: ['Locks after failed logins'],
  dependencies: [],
  sections: throttleSections,
  events: throttleEvents,
  register: registerThrottleModule,
};
