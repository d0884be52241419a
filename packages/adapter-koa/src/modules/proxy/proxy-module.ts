import type { GrantProxyTicket, IssueProxyGrantingTicket } from '@tessera/core/modules/proxy';
import type { HttpModule } from '../../http-module.js';
import { pgtUrlExtension } from './pgt-url.js';
import { proxyRoute } from './proxy-routes.js';

export interface ProxyModuleOptions {
  /** GET /proxy: a PT for a PGT. */
  readonly grantProxyTicket: GrantProxyTicket;
  /** A validation's `pgtUrl`: a PGT delivered to it. */
  readonly issueProxyGrantingTicket: IssueProxyGrantingTicket;
}

/** The `proxy` module: its route, GET /proxy, and `pgtUrl` on the validation endpoints. */
export function proxyModule({ grantProxyTicket, issueProxyGrantingTicket }: ProxyModuleOptions): HttpModule {
  return {
    name: 'proxy',
    routes: (http) => [proxyRoute(http, grantProxyTicket)],
    extensions: () => ({ validation: pgtUrlExtension(issueProxyGrantingTicket) }),
  };
}
