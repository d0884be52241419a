import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MetricsExposition, RequestObserver } from '@tessera/adapter-koa';
import type { LiveTgtCount } from '@tessera/core';

/** HTTP methods kept as themselves; anything else a client invents is `OTHER`, so it cannot grow the series. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
/** The route label of a request no route matched (never its path: paths carry ticket ids). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * tessera's Prometheus metrics, in a registry of their own (not prom-client's global one), so several
 * servers in one process never share or collide. Labels are bounded and never carry a username,
 * ticket id or service URL. Counters are fed by MetricsEventSink; the histogram by the web app.
 */
export class TesseraMetrics implements MetricsExposition {
  private readonly registry = new Registry();
  readonly ticketsIssued = new Counter({ name: 'tessera_tickets_issued_total', help: 'Tickets issued, by kind (TGT, ST, PGT, PT; the oidc module\'s codes as oidc_code, its tokens as oidc_<grant type>).', labelNames: ['kind'], registers: [this.registry] });
  readonly ticketValidations = new Counter({
    name: 'tessera_ticket_validations_total',
    help: 'Service ticket validations, by outcome: success or the CAS failure code.',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly authentications = new Counter({
    name: 'tessera_authentications_total',
    help: 'Authentications by handler and outcome (success, failure); a failure counts under every handler asked, or none.',
    labelNames: ['handler', 'outcome'],
    registers: [this.registry],
  });
  readonly refusals = new Counter({
    name: 'tessera_refusals_total',
    help: 'Requests refused past their parameters, by request (TGT, ST, PGT, PT, authentication, registration, oidc_authorization, oidc_token) and reason code.',
    labelNames: ['request', 'reason'],
    registers: [this.registry],
  });
  readonly proxyCallbackFailures = new Counter({
    name: 'tessera_proxy_callback_failures_total',
    help: 'Proxy callbacks that did not take their PGT, by reason: status (an answer other than 200), timeout, unreachable, certificate.',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly throttleLocks = new Counter({ name: 'tessera_throttle_locks_total', help: 'Client IP + username keys locked by the throttle module.', registers: [this.registry] });
  readonly otpReuses = new Counter({ name: 'tessera_otp_reuses_total', help: 'One-time passwords refused because they were used before.', registers: [this.registry] });
  readonly serverErrors = new Counter({ name: 'tessera_server_errors_total', help: 'Unexpected errors and outages answered 5xx.', registers: [this.registry] });
  /** Node's own codes (HPE_*, ERR_HTTP_REQUEST_TIMEOUT): a bounded set whatever the client sends. */
  readonly unreadableRequests = new Counter({
    name: 'tessera_unreadable_requests_total',
    help: 'Requests the HTTP listener refused (4xx or a closed connection) before any route saw them, by code: HPE_* when the parser could not read them, ERR_HTTP_REQUEST_TIMEOUT when they did not arrive in time.',
    labelNames: ['code'],
    registers: [this.registry],
  });
  private readonly requestDuration = new Histogram({
    name: 'tessera_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor(liveTgts: LiveTgtCount) {
    new Gauge({
      name: 'tessera_tgts_live',
      help: 'Live TGTs (single sign-on sessions) in the ticket store: this node with memory storage, the whole cluster with mongo.',
      registers: [this.registry],
      async collect() {
        // While the store is unreachable the gauge keeps its last value; /health/ready reports the outage.
        await liveTgts.liveTgts().then(
          (count) => this.set(count),
          () => undefined,
        );
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  readonly observeRequest: RequestObserver = (method, route, status, seconds) => {
    this.requestDuration.observe({ method: METHODS.has(method) ? method : 'OTHER', route: route ?? UNMATCHED_ROUTE, status: String(status) }, seconds);
  };
}
