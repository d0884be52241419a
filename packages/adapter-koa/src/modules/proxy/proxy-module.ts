import type { GrantProxyTicket } from '@tessera/core';
import type { HttpModule } from '../../http-module.js';
import { proxyRoute } from './proxy-routes.js';

/**
 * The `proxy` module's route: GET /proxy. Its other half, `pgtUrl` on the validation endpoints, reaches
 * them through the app's `proxyGranting` dependency.
 */
export function proxyModule(grant: GrantProxyTicket): HttpModule {
  return { name: 'proxy', routes: (http) => [proxyRoute(http, grant)] };
}
