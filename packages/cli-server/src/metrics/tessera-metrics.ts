import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { MetricsExposition, RequestObserver } from '@tessera/adapter-koa';
import type { LiveTgtCount } from '@tessera/core';
import type { CounterSpec } from '../events/module-events.js';
import { RequestDurationHistogram } from './request-duration-histogram.js';

/** Refusals past a request's parameters: core's (tickets, `/v1/users`) and a module's (registration) alike. */
export const REFUSALS: CounterSpec = {
  name: 'tessera_refusals_total',
  help: 'Requests refused past their parameters, by request (TGT, ST, PGT, PT, authentication, registration) and reason code.',
  labelNames: ['request', 'reason'],
};

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
  readonly ticketsIssued = new Counter({ name: 'tessera_tickets_issued_total', help: 'Tickets issued, by kind (TGT, ST, PGT, PT).', labelNames: ['kind'], registers: [this.registry] });
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
  /** Counters by name: core's below, and those the modules' events declare (`counter`). */
  private readonly counters = new Map<string, { readonly spec: CounterSpec; readonly counter: Counter }>();
  readonly refusals = this.counter(REFUSALS);
  readonly serverErrors = new Counter({ name: 'tessera_server_errors_total', help: 'Unexpected errors and outages answered 5xx.', registers: [this.registry] });
  /** Node's own codes (HPE_*, ERR_HTTP_REQUEST_TIMEOUT): a bounded set whatever the client sends. */
  readonly unreadableRequests = new Counter({
    name: 'tessera_unreadable_requests_total',
    help: 'Requests the HTTP listener refused (4xx or a closed connection) before any route saw them, by code: HPE_* when the parser could not read them, ERR_HTTP_REQUEST_TIMEOUT when they did not arrive in time.',
    labelNames: ['code'],
    registers: [this.registry],
  });
  private readonly requestDuration = new RequestDurationHistogram(
    'tessera_http_request_duration_seconds',
    'Time to answer a request, by method, route pattern and status.',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    this.registry,
  );

  /** `counters`: those the modules' events add to, there from the start (at 0 when unlabelled) like core's. */
  constructor(liveTgts: LiveTgtCount, counters: Iterable<CounterSpec> = []) {
    for (const spec of counters) this.counter(spec);
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

  /** The counter of this name in this registry, made at the first ask; one name is one counter, with one help and one set of labels. */
  counter(spec: CounterSpec): Counter {
    const known = this.counters.get(spec.name);
    if (known !== undefined) {
      if (known.spec.help !== spec.help || String(known.spec.labelNames ?? []) !== String(spec.labelNames ?? [])) throw new Error(`counter ${spec.name} is declared twice, differently`);
      return known.counter;
    }
    const counter = new Counter({ name: spec.name, help: spec.help, labelNames: [...(spec.labelNames ?? [])], registers: [this.registry] });
    this.counters.set(spec.name, { spec, counter });
    return counter;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  readonly observeRequest: RequestObserver = (method, route, status, seconds) => {
    this.requestDuration.observe(METHODS.has(method) ? method : 'OTHER', route ?? UNMATCHED_ROUTE, status, seconds);
  };
}
