import type { RandomSource } from '../../ports/random-source.js';

/** Content encryption of the JWE inside a ticket JWT, as Apereo CAS offers (`cas.authn.token.crypto.alg`). */
export const CONTENT_ENCRYPTION_ALGORITHMS = ['A128CBC-HS256', 'A256CBC-HS512', 'A256GCM'] as const;
export type ContentEncryptionAlgorithm = (typeof CONTENT_ENCRYPTION_ALGORITHMS)[number];

/** The key pair of the tokens module, in CAS's textual form so CAS consumers can use them unchanged. */
export interface TokenKeyPair {
  /** HMAC key for the outer JWS (HS512): the string's UTF-8 bytes are the key, as CAS uses it. */
  readonly signingKey: string;
  /** Key of the inner JWE (`dir`): base64url of exactly the algorithm's key size (an `oct` JWK's `k`). */
  readonly encryptionKey: string;
}

export interface TokenKeys extends TokenKeyPair {
  readonly encryptionAlgorithm: ContentEncryptionAlgorithm;
}

/** A CBC-HS key holds both the MAC and the cipher key, hence twice the nominal size. */
const ENCRYPTION_KEY_BYTES: Readonly<Record<ContentEncryptionAlgorithm, number>> = {
  'A128CBC-HS256': 32,
  'A256CBC-HS512': 64,
  A256GCM: 32,
};

/** RFC 7518 §3.2: an HS512 key must be at least as long as the hash output. */
const MIN_SIGNING_KEY_BYTES = 64;
/** Bytes of randomness in a generated signing key: CAS generates a 512-bit octet JWK. */
const GENERATED_SIGNING_KEY_BYTES = 64;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function signingKeyProblem(key: string): string | undefined {
  const size = new TextEncoder().encode(key).length;
  if (size < MIN_SIGNING_KEY_BYTES) return `expected at least ${MIN_SIGNING_KEY_BYTES} bytes for HS512, got ${size}`;
  return undefined;
}

export function encryptionKeyProblem(key: string, algorithm: ContentEncryptionAlgorithm): string | undefined {
  const expected = ENCRYPTION_KEY_BYTES[algorithm];
  if (!BASE64URL.test(key)) return `expected base64url text of ${expected} bytes (${algorithm})`;
  const size = Buffer.from(key, 'base64url').length;
  if (size !== expected) return `expected ${expected} bytes for ${algorithm}, got ${size}`;
  return undefined;
}

/** A fresh pair with the sizes the algorithm needs; `tessera keys generate` and first starts use it. */
export function generateTokenKeys(algorithm: ContentEncryptionAlgorithm, random: RandomSource): TokenKeyPair {
  return {
    signingKey: Buffer.from(random.bytes(GENERATED_SIGNING_KEY_BYTES)).toString('base64url'),
    encryptionKey: Buffer.from(random.bytes(ENCRYPTION_KEY_BYTES[algorithm])).toString('base64url'),
  };
}
