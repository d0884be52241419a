/** The claims of a JWT ticket: registered claims (jti, sub, iss, aud, iat, exp) and attributes. */
export type JwtClaims = Readonly<Record<string, unknown>>;

export interface DecodeExpectations {
  /** When given, the token's `aud` must contain this value. */
  readonly audience?: string;
}

/**
 * Turns ticket claims into a protected token and back (the tokens module). `decode` verifies and
 * decrypts with pinned algorithms and checks `exp`; any failure throws InvalidTokenError, never
 * telling which check failed.
 */
export interface TicketCodec {
  encode(claims: JwtClaims): Promise<string>;
  decode(token: string, expectations?: DecodeExpectations): Promise<JwtClaims>;
}
