import { hkdfSync } from 'node:crypto';
import type { RandomSource } from '../../ports/random-source.js';

/** Bytes of the login module's secret: base64url of exactly this many. */
export const LOGIN_SECRET_BYTES = 32;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The keys the login module derives from its one secret, each for one purpose only. */
export interface LoginKeys {
  /** AES-256-GCM key of the ticket-granting cookie (JWE `dir`). */
  readonly cookie: Uint8Array;
  /** HMAC-SHA-256 key of the login form's anti-forgery tokens (JWS HS256). */
  readonly form: Uint8Array;
}

export function loginSecretProblem(secret: string): string | undefined {
  if (!BASE64URL.test(secret)) return `expected base64url text of ${LOGIN_SECRET_BYTES} bytes`;
  const size = Buffer.from(secret, 'base64url').length;
  return size === LOGIN_SECRET_BYTES ? undefined : `expected ${LOGIN_SECRET_BYTES} bytes, got ${size}`;
}

export function generateLoginSecret(random: RandomSource): string {
  return Buffer.from(random.bytes(LOGIN_SECRET_BYTES)).toString('base64url');
}

/** HKDF-SHA-256 of the secret, one label per purpose: a key never serves two algorithms. */
export function deriveLoginKeys(secret: string): LoginKeys {
  const material = Buffer.from(secret, 'base64url');
  const derive = (purpose: string) => new Uint8Array(hkdfSync('sha256', material, new Uint8Array(0), `tessera login ${purpose}`, 32));
  return { cookie: derive('ticket-granting cookie'), form: derive('form token') };
}
