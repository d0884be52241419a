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
