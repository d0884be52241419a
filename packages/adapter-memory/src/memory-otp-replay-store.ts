import type { OtpReplayStore } from '@tessera/core/modules/otp';

/** OtpReplayStore in one process's memory: one number per user who ever logged in with a code. */
export class MemoryOtpReplayStore implements OtpReplayStore {
  private readonly lastSteps = new Map<string, number>();

  claim(username: string, step: number): Promise<boolean> {
    const last = this.lastSteps.get(username);
    if (last !== undefined && last >= step) return Promise.resolve(false);
    this.lastSteps.set(username, step);
    return Promise.resolve(true);
  }
}
