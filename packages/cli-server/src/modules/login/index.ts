import { cryptoRandomSource } from '@tessera/core';
import { generateLoginSecret } from '@tessera/core/modules/login';
import type { ModuleKeyFile, ModuleSettings, TesseraModule } from '../module.js';
import { loginSections } from './config.js';
import { registerLoginModule } from './register.js';
import { loginEvents } from './events.js';

/** For tests (`@tessera/cli-server/modules/login`): the back-channel logout requests' sender. */
export { HttpLogoutRequestSender } from './back-channel-sender.js';

/** `login` (docs/protocol.md §12): the browser half of CAS. */
export const loginModule: TesseraModule<typeof loginSections> = {
  name: 'login',
  comparisonRows: ['CAS browser login (`/login`) and validation (CAS 1, 2, 3)', 'Back-channel single logout', 'Front-channel single logout'],
  // No dependency: the form logs in through the central credential handlers, and the throttle and audit every login has.
  dependencies: [],
  onInDemo: true,
  sections: loginSections,
  events: loginEvents,
  // GET and POST /login, GET /logout, POST /login/step (`factor`: the choice among second factors).
  parameters: () => ['service', 'renew', 'gateway', 'method', 'warn', 'formToken', 'confirmed', 'url', 'pending', 'factor'].map((name) => ({ name })),
  keyFiles: loginKeyFiles,
  register: registerLoginModule,
};

type LoginSettings = ModuleSettings<typeof loginSections>;

/** `login.keyFile`, unless `login.key` is set. */
function loginKeyFiles({ login }: LoginSettings): ModuleKeyFile<LoginSettings>[] {
  if (login.key !== undefined) return [];
  return [{ setting: 'login.keyFile', file: login.keyFile, inMemory: (settings) => ({ ...settings, login: { ...settings.login, key: generateLoginSecret(cryptoRandomSource) } }) }];
}
