import { proxyModule } from '@tessera/adapter-koa/modules/proxy';
import { GrantProxyTicket, IssueProxyGrantingTicket } from '@tessera/core/modules/proxy';
import { key, KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { proxySections } from './config.js';
import { HttpsProxyCallback, readCaBundle } from './https-proxy-callback.js';

const CALLBACK = key<HttpsProxyCallback>('proxy: callback over HTTPS');

/**
 * `proxy`: PGTs for a validation's `pgtUrl` and GET /proxy, both in its HttpModule. A PT validated
 * is told to the session listener like an ST (by the validation), so single logout reaches proxied
 * services too. The CA file, when set, is read when the app is built: a bad one stops the start,
 * naming the setting.
 */
export const registerProxyModule: ModuleRegistration<typeof proxySections> = (binder, { proxy }) => {
  const { callback } = proxy;
  binder.resolved(CALLBACK, [], () => new HttpsProxyCallback({ timeoutMs: callback.timeoutMs, ...(callback.caFile !== undefined && { ca: readCaBundle(callback.caFile) }) }));
  binder.resolved(
    KEYS.HttpModule,
    [KEYS.CasCore, KEYS.TicketStore, CALLBACK, KEYS.EventSink],
    (core, tickets, sender, events) =>
      proxyModule({
        grantProxyTicket: new GrantProxyTicket(core, tickets, events),
        issueProxyGrantingTicket: new IssueProxyGrantingTicket(core, tickets, sender, events),
      }),
  );
};
