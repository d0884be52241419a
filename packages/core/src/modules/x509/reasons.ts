/** Why a certificate is refused: short, safe to show the caller, naming the failure (`authentication_exceptions`). */
export const CERTIFICATE_REASONS = {
  unreadable: 'Certificate could not be read.',
  untrusted: 'Certificate not issued by a trusted authority.',
  expired: 'Certificate expired.',
  notYetValid: 'Certificate not yet valid.',
  issuerDates: 'An issuing CA certificate is expired or not yet valid.',
  notEndEntity: 'A CA certificate cannot be used to log in.',
  pathTooLong: 'Certificate path too long.',
  keyUsage: 'Certificate key usage does not allow client authentication.',
  subjectNotAllowed: 'Certificate subject not allowed.',
  revoked: 'Certificate revoked.',
  crlStale: 'Certificate revocation list stale: revocation status unknown.',
  crlMissing: 'No certificate revocation list for the issuer: revocation status unknown.',
} as const;
