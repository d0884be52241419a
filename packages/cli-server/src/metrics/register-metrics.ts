import type { Binder } from '../di.js';
import { KEYS } from '../keys.js';
import { MetricsEventSink } from './metrics-event-sink.js';
import { TesseraMetrics } from './tessera-metrics.js';

/**
 * With `metrics.enabled`: one registry per container (so per server), its counters fed as one more
 * event sink and its latency histogram by the web app's request observer.
 */
export function registerMetrics(binder: Binder): void {
  binder.resolved(KEYS.Metrics, [KEYS.LiveTgtCount, KEYS.ModuleEvents], (liveTgts, modules) => new TesseraMetrics(liveTgts, modules.counters()));
  binder.resolved(KEYS.EventSinks, [KEYS.Metrics, KEYS.ModuleEvents], (metrics, modules) => new MetricsEventSink(metrics, modules));
}
