import { restModule, usernamePasswordExtractor } from '@tessera/adapter-koa/modules/rest';
import { KEYS } from '../../keys.js';
import { registerPasswordHandlers } from './password-handlers.js';
import type { ModuleRegistration } from '../module.js';

/** `rest`: `/v1/tickets` and `/v1/users` with username + password, checked by `authentication.handlers` in order. */
export const registerRestModule: ModuleRegistration = (binder, config) => {
  binder.resolved(KEYS.HttpModule, [], () => restModule({ newLoginWindowSeconds: config.rest.newLoginWindowSeconds }));
  binder.constant(KEYS.CredentialExtractor, usernamePasswordExtractor);
  registerPasswordHandlers(binder, config);
};
