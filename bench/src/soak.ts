import { drive } from './child.js';
import type { LoadSpec } from './load-spec.js';
import { FORM } from './load-spec.js';
import { CHEAP_LOGIN, SERVICE, type Tessera } from './servers/tessera.js';

const MIB = 1024 * 1024;
const SAMPLE_SECONDS = 10;
/** Each load segment is this long; the mix changes segment by segment. */
const SEGMENT_SECONDS = 30;

export interface SoakSample {
  readonly second: number;
  readonly rssMiB: number;
  readonly heapUsedMiB: number;
}

/**
 * `minutes` of mixed load (TGT create, ST grant and status in turn, 30 s each) on the server in this
 * process, sampling its RSS and heap every 10 s. Tickets pile up as they would in production.
 */
export async function soak(tessera: Tessera, tgts: readonly string[], minutes: number, connections: number): Promise<SoakSample[]> {
  const { origin, base } = tessera;
  const tgtPaths = tgts.map((tgt) => `${base}/v1/tickets/${tgt}`);
  const mix: LoadSpec[] = [
    { origin, connections, duration: SEGMENT_SECONDS, method: 'POST', paths: [`${base}/v1/tickets`], body: CHEAP_LOGIN, headers: { ...FORM, accept: 'text/plain' } },
    { origin, connections, duration: SEGMENT_SECONDS, method: 'POST', paths: tgtPaths, body: `service=${encodeURIComponent(SERVICE)}`, headers: FORM },
    { origin, connections, duration: SEGMENT_SECONDS, method: 'GET', paths: tgtPaths },
  ];
  const samples: SoakSample[] = [];
  const started = performance.now();
  const sample = () => {
    const usage = process.memoryUsage();
    samples.push({ second: Math.round((performance.now() - started) / 1000), rssMiB: usage.rss / MIB, heapUsedMiB: usage.heapUsed / MIB });
  };
  sample();
  const sampler = setInterval(sample, SAMPLE_SECONDS * 1000);
  try {
    for (let segment = 0; (performance.now() - started) / 1000 < minutes * 60; segment += 1) {
      await drive(mix[segment % mix.length]!);
    }
  } finally {
    clearInterval(sampler);
    sample();
  }
  return samples;
}
