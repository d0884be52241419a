import type { ProxyCallbackFailedEvent } from '@tessera/core/modules/proxy';
import { declareEvent } from '../../events/module-events.js';

/** A validation asked for a PGT and its proxy's callback did not take it: the service got none. A ticket failure, counted by reason. */
export const proxyEvents = [
  declareEvent<ProxyCallbackFailedEvent>({
    type: 'proxy.callback.failed',
    level: 'warn',
    audit: { category: 'ticket', outcome: 'failure', who: 'principal' },
    counts: [
      {
        counter: {
          name: 'tessera_proxy_callback_failures_total',
          help: 'Proxy callbacks that did not take their PGT, by reason: status (an answer other than 200), timeout, unreachable, certificate.',
          labelNames: ['reason'],
        },
        labels: (event) => ({ reason: event.reason }),
      },
    ],
  }),
];
