/**
 * Remembers, per user, the last TOTP time step accepted, so each code logs in once (ASVS 2.8.4).
 * Shared by every node. Mongo: `updateOne({ _id: username, step: { $lt: step } }, { $set: { step } },
 * { upsert: true })`; a duplicate key error 11000 means a step at least as late was already accepted.
 */
export interface OtpReplayStore {
  /**
   * Atomically records `step` as the user's last accepted step if it is later than the one recorded.
   * True when recorded; false for a step already used or older: the code must be refused.
   */
  claim(username: string, step: number): Promise<boolean>;
}
