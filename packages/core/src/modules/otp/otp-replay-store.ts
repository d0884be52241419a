import type { Clock } from '../../ports/clock.js';
import { updateRecord, type RecordStore, type RecordStores } from '../../ports/record-store.js';

/**
 * Remembers, per user, the last TOTP time step accepted, so each code logs in once (ASVS 2.8.4).
 * Shared by every node.
 */
export interface OtpReplayStore {
  /**
   * Atomically records `step` as the user's last accepted step if it is later than the one recorded.
   * True when recorded; false for a step already used or older: the code must be refused. Concurrent
   * claims, on one node or several, take effect one after the other: of two racing claims of steps
   * s1 < s2 for a user, s2 is accepted (s1 only if it came first), and neither is accepted again.
   */
  claim(username: string, step: number): Promise<boolean>;
}

/** The otp module's namespace of last accepted steps in the storage's RecordStores. */
export const OTP_STEP_NAMESPACE = 'otp.steps';

/**
 * How long a user's last accepted step is kept: far longer than the span in which a code is accepted
 * (its 30 s step and the ones either side), after which an older step could never be accepted anyway.
 */
export const OTP_STEP_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * OtpReplayStore on the storage's records: the user's last accepted step, raised by a compare-and-set
 * update, so claims racing on several nodes apply one after the other and a later step always wins.
 */
export class RecordOtpReplayStore implements OtpReplayStore {
  private readonly steps: RecordStore<number>;

  constructor(
    records: RecordStores,
    private readonly clock: Clock,
  ) {
    this.steps = records.namespace<number>(OTP_STEP_NAMESPACE);
  }

  async claim(username: string, step: number): Promise<boolean> {
    const written = await updateRecord(this.steps, username, (current) =>
      current !== undefined && current.value >= step ? undefined : { value: step, expiresAt: this.clock.now() + OTP_STEP_RETENTION_MS },
    );
    return written !== undefined;
  }
}
