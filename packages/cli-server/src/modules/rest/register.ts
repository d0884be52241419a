import { restModule } from '@tessera/adapter-koa/modules/rest';
import { KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { restSections } from './config.js';

/**
 * `rest`: `/v1/tickets` and `/v1/users`, speaking `rest.revision`, on the credentials every installed
 * extractor finds and the central handlers check.
 */
export const registerRestModule: ModuleRegistration<typeof restSections> = (binder, { rest }) => {
  binder.resolved(KEYS.HttpModule, [], () => restModule({ newLoginWindowSeconds: rest.newLoginWindowSeconds, revision: rest.revision }));
};
