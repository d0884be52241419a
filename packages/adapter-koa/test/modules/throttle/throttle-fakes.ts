import type { RequestRateStore } from '@tessera/core/modules/throttle';

/** A bucket per key holding `capacity` tokens that never refill; an empty one answers a 1.5 s wait. */
export class DrainingRateStore implements RequestRateStore {
  readonly taken = new Map<string, number>();
  take(key: string, _now: number, capacity: number): Promise<number> {
    const taken = this.taken.get(key) ?? 0;
    if (taken >= capacity) return Promise.resolve(1500);
    this.taken.set(key, taken + 1);
    return Promise.resolve(0);
  }
}
