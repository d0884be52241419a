import type { TesseraModule } from '../module.js';
import { loginSchema } from './config.js';
import { registerLoginModule } from './register.js';

const sections = { login: loginSchema.prefault({}) };

/** `login` (docs/protocol.md §12): the browser half of CAS. */
export const loginModule: TesseraModule<typeof sections> = {
  name: 'login',
  // Needs rest: the form logs in through its credential handlers, throttle and audit.
  dependencies: ['rest'],
  onInDemo: true,
  sections,
  register: registerLoginModule,
};
