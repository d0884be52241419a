import type { ServiceRefusedEvent } from '@tessera/core/modules/services';
import { declareEvent } from '../../events/module-events.js';
import { REFUSALS } from '../../metrics/tessera-metrics.js';

/** A registration refused: a service failure of who tried, counted among the refusals as `registration`. */
export const servicesEvents = [
  declareEvent<ServiceRefusedEvent>({
    type: 'service.refused',
    level: 'warn',
    audit: { category: 'service', outcome: 'failure', who: 'principal' },
    counts: [{ counter: REFUSALS, labels: (event) => ({ request: 'registration', reason: event.reason }) }],
  }),
];
