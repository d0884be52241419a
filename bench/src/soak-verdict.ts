import { median } from './verdicts.js';

/** One reading of the server during the soak. */
export interface SoakSample {
  /** Seconds since the load started. */
  readonly second: number;
  readonly rssBytes: number;
}

export interface SoakVerdict {
  readonly met: boolean;
  /** Median RSS of the samples in the second minute (60 s ≤ t < 120 s) and in the last minute (a median, as one sample may catch the heap just before a GC). */
  readonly secondMinuteBytes: number;
  readonly lastMinuteBytes: number;
  /** (last − second) / second. */
  readonly change: number;
  readonly text: string;
}

/** Flat memory means the last minute's median RSS within `tolerance` of the second minute's; any failed request fails the soak. */
export function soakVerdict(samples: readonly SoakSample[], endSecond: number, failures: number, tolerance = 0.05): SoakVerdict {
  const within = (from: number, to: number) => median(samples.filter((sample) => sample.second >= from && sample.second < to).map((sample) => sample.rssBytes));
  const secondMinuteBytes = within(60, 120);
  const lastMinuteBytes = within(endSecond - 60, endSecond + 1);
  const change = (lastMinuteBytes - secondMinuteBytes) / secondMinuteBytes;
  const flat = Math.abs(change) <= tolerance;
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const problems = [
    ...(Number.isNaN(change) ? ['no samples in the second or the last minute'] : flat ? [] : [`RSS moved ${(change * 100).toFixed(1)}% (more than ${tolerance * 100}%)`]),
    ...(failures > 0 ? [`${failures} failed requests`] : []),
  ];
  const measures = `second minute ${mib(secondMinuteBytes)}, last minute ${mib(lastMinuteBytes)} (${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%), ${failures} failed requests`;
  return {
    met: problems.length === 0,
    secondMinuteBytes,
    lastMinuteBytes,
    change,
    text: problems.length === 0 ? `met: ${measures}` : `**not met** (${problems.join('; ')}): ${measures}`,
  };
}
