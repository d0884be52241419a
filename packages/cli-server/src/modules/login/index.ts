import type { TesseraModule } from '../module.js';
import { loginSections } from './config.js';
import { registerLoginModule } from './register.js';

/** `login` (docs/protocol.md §12): the browser half of CAS. */
export const loginModule: TesseraModule<typeof loginSections> = {
  name: 'login',
  // No dependency: the form logs in through the central credential handlers, and the throttle and audit every login has.
  dependencies: [],
  onInDemo: true,
  sections: loginSections,
  // GET and POST /login, GET /logout.
  parameters: () => ['service', 'renew', 'gateway', 'method', 'warn', 'formToken', 'confirmed', 'url'].map((name) => ({ name })),
  register: registerLoginModule,
};
