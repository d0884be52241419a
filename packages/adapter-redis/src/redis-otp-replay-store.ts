import type { OtpReplayStore } from '@tessera/core/modules/otp';
import type { RedisKeys } from './keys.js';
import { runScript, type RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/**
 * How long a user's last accepted step is kept: far longer than the span in which a code is accepted
 * (its 30 s step and the ones either side), after which an older step could never be accepted anyway.
 */
export const OTP_STEP_RETENTION_SECONDS = 24 * 60 * 60;

/** Used one-time passwords in Redis, shared by every node: a code accepted on one is refused on all. */
export class RedisOtpReplayStore implements OtpReplayStore {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  async claim(username: string, step: number): Promise<boolean> {
    const claimed = await guarded(() => runScript(this.client, 'tesseraClaimStep', [this.keys.otpStep(username)], [step, OTP_STEP_RETENTION_SECONDS]));
    return Number(claimed) === 1;
  }
}
