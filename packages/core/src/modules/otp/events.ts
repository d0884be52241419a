/** A TOTP code, or an older one, was presented again (ASVS 2.8.5: refused and logged). */
export type OtpReusedEvent = {
  readonly type: 'otp.reused';
  readonly username: string;
};
