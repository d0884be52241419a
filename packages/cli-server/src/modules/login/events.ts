import type { LoginTokenRefusedEvent, LogoutRequestDeliveredEvent, LogoutRequestDroppedEvent, LogoutRequestFailedEvent } from '@tessera/core/modules/login';
import { declareEvent } from '../../events/module-events.js';

export const loginEvents = [
  // A login form posted without a token of this browser: a forged cross-site post looks like this.
  declareEvent<LoginTokenRefusedEvent>({ type: 'login.token.refused', level: 'warn', audit: { category: 'authentication', outcome: 'failure' } }),
  // Single logout: whether a service was told that a session it took part in ended.
  declareEvent<LogoutRequestDeliveredEvent>({ type: 'logout.request.delivered', level: 'info', audit: { category: 'logout', outcome: 'success', who: 'principal' } }),
  declareEvent<LogoutRequestFailedEvent>({ type: 'logout.request.failed', level: 'warn', audit: { category: 'logout', outcome: 'failure', who: 'principal' } }),
  // The session had too many services to tell: the oldest will not hear of its end.
  declareEvent<LogoutRequestDroppedEvent>({ type: 'logout.request.dropped', level: 'warn', audit: { category: 'logout', outcome: 'failure', who: 'principal' } }),
];
