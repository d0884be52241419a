import { Secret, TOTP } from 'otpauth';

export interface TotpEnrolment {
  /** 160 random bits as base32, RFC 4226's recommended length: the user's `otpSecret`. */
  readonly secret: string;
  /** `otpauth://totp/…` for an authenticator app (as a QR code, or typed in). */
  readonly uri: string;
}

/** A fresh TOTP secret for `username`, in the parameters TotpHandler checks (SHA-1, 6 digits, 30 s). */
export function newTotpEnrolment(username: string, issuer = 'tessera'): TotpEnrolment {
  const secret = new Secret({ size: 20 });
  return { secret: secret.base32, uri: new TOTP({ issuer, label: username, secret }).toString() };
}
