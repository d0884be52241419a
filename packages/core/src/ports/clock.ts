/** Wall-clock time in epoch milliseconds. Injected everywhere so expiry tests move a clock instead of sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
