import type { DomainEvent, EventSink } from '@tessera/core';
import type { TesseraMetrics } from './tessera-metrics.js';

/** The label of a failed authentication no handler was asked about (no handler supports the credential). */
export const NO_HANDLER = 'none';

/**
 * Counts domain events. Only bounded values become labels (ticket kind, CAS failure code, handler
 * name, refusal reason code); principals, ticket fingerprints, services and throttle keys never do.
 */
export class MetricsEventSink implements EventSink {
  constructor(private readonly metrics: TesseraMetrics) {}

  emit(event: DomainEvent): void {
    const { metrics } = this;
    switch (event.type) {
      case 'ticket.created':
        metrics.ticketsIssued.inc({ kind: event.kind });
        break;
      case 'ticket.refused':
        metrics.refusals.inc({ request: event.kind, reason: event.reason });
        break;
      case 'authentication.refused':
        metrics.refusals.inc({ request: 'authentication', reason: event.reason });
        break;
      case 'service.refused':
        metrics.refusals.inc({ request: 'registration', reason: event.reason });
        break;
      case 'proxy.callback.failed':
        metrics.proxyCallbackFailures.inc({ reason: event.reason });
        break;
      case 'ticket.validated':
        metrics.ticketValidations.inc({ outcome: 'success' });
        break;
      case 'ticket.validation.failed':
        metrics.ticketValidations.inc({ outcome: event.code });
        break;
      case 'authentication.succeeded':
        for (const handler of event.handlers) metrics.authentications.inc({ handler, outcome: 'success' });
        break;
      case 'authentication.failed':
        for (const handler of event.handlers.length > 0 ? event.handlers : [NO_HANDLER]) metrics.authentications.inc({ handler, outcome: 'failure' });
        break;
      case 'authentication.throttled':
        metrics.throttleLocks.inc();
        break;
      case 'otp.reused':
        metrics.otpReuses.inc();
        break;
      case 'oidc.authorized':
        metrics.ticketsIssued.inc({ kind: 'oidc_code' });
        break;
      case 'oidc.token.issued':
        metrics.ticketsIssued.inc({ kind: `oidc_${event.grantType ?? 'unknown'}` });
        break;
      case 'oidc.refused':
        metrics.refusals.inc({ request: `oidc_${event.request}`, reason: event.error });
        break;
      case 'server.error':
        metrics.serverErrors.inc();
        break;
      case 'request.unreadable':
        metrics.unreadableRequests.inc({ code: event.code });
        break;
      default:
        break;
    }
  }
}
