import type { TesseraModule } from '../module.js';
import { proxySections } from './config.js';
import { registerProxyModule } from './register.js';
import { proxyEvents } from './events.js';

/** For tests (`@tessera/cli-server/modules/proxy`): the HTTPS callback a PGT is handed over on. */
export { HttpsProxyCallback, readCaBundle } from './https-proxy-callback.js';

/** `proxy` (docs/protocol.md §13): proxy-granting and proxy tickets. */
export const proxyModule: TesseraModule<typeof proxySections> = {
  name: 'proxy',
  comparisonRows: ['CAS proxy tickets'],
  // No dependency: proxy tickets speak for login sessions, which the browser login and REST both make.
  dependencies: [],
  onInDemo: true,
  sections: proxySections,
  events: proxyEvents,
  // `pgtUrl` on the CAS 2 and 3 validation paths; `pgt` and `targetService` on GET /proxy (`format` is the validation endpoints').
  parameters: () => [{ name: 'pgtUrl' }, { name: 'pgt' }, { name: 'targetService' }, { name: 'format' }],
  register: registerProxyModule,
};
