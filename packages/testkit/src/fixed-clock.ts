import type { Clock } from '@tessera/core';

/** A clock that moves only when a test moves it, so expiry tests never sleep. */
export class FixedClock implements Clock {
  constructor(private time: number = Date.UTC(2026, 10, 21, 10, 0, 0)) {}

  now(): number {
    return this.time;
  }

  advance(ms: number): void {
    this.time += ms;
  }

  advanceSeconds(seconds: number): void {
    this.time += seconds * 1000;
  }

  set(ms: number): void {
    this.time = ms;
  }
}
