import type { OtpReplayStore } from '@tessera/core';

export class MapReplayStore implements OtpReplayStore {
  readonly steps = new Map<string, number>();
  claim(username: string, step: number): Promise<boolean> {
    const last = this.steps.get(username);
    if (last !== undefined && last >= step) return Promise.resolve(false);
    this.steps.set(username, step);
    return Promise.resolve(true);
  }
}
