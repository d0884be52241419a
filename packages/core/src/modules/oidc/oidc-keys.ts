import { generateKeyPairSync } from 'node:crypto';
import type { RandomSource } from '../../ports/random-source.js';

/** A private JSON Web Key as the provider signs with it (RSA, `kid` and `alg` set). */
export type OidcSigningKey = { readonly kty: string; readonly kid: string; readonly alg: string; readonly use: 'sig' } & Readonly<Record<string, string>>;

/**
 * The oidc module's secrets: the signing keys, newest first (the first signs; every one is published
 * in the JWKS, so tokens signed before a rotation still verify), and the secrets its cookies are signed with.
 */
export type OidcKeySet = {
  readonly keys: readonly OidcSigningKey[];
  readonly cookieSecrets: readonly string[];
};

const RSA_BITS = 2048;

/** A fresh RS256 signing key, named by a random `kid`. */
export function generateOidcSigningKey(random: RandomSource): OidcSigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: RSA_BITS });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, string>;
  return { ...jwk, kty: 'RSA', kid: Buffer.from(random.bytes(12)).toString('base64url'), alg: 'RS256', use: 'sig' };
}

/** A fresh key set; with `previous`, its current signing key stays published after the new one (a rotation). */
export function generateOidcKeySet(random: RandomSource, previous?: OidcKeySet): OidcKeySet {
  const kept = previous?.keys[0];
  return {
    keys: [generateOidcSigningKey(random), ...(kept ? [kept] : [])],
    cookieSecrets: [Buffer.from(random.bytes(32)).toString('base64url'), ...(previous?.cookieSecrets.slice(0, 1) ?? [])],
  };
}

/** What is wrong with a key set read from a file or a setting, or undefined. */
export function oidcKeySetProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'is not JSON of the form {"keys": [...], "cookieSecrets": [...]}';
  const { keys, cookieSecrets } = value as { keys?: unknown; cookieSecrets?: unknown };
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > 2) return 'needs "keys": the current signing key, then at most the previous one';
  for (const [index, key] of keys.entries()) {
    if (typeof key !== 'object' || key === null) return `keys[${index}] is not a JSON Web Key`;
    const { kty, kid, d, alg } = key as Record<string, unknown>;
    if (kty !== 'RSA' || typeof d !== 'string' || typeof kid !== 'string' || alg !== 'RS256') return `keys[${index}] is not a private RS256 JSON Web Key with a kid`;
  }
  if (!Array.isArray(cookieSecrets) || cookieSecrets.length === 0 || !cookieSecrets.every((secret) => typeof secret === 'string' && secret.length >= 32)) {
    return 'needs "cookieSecrets": strings of at least 32 characters, the current one first';
  }
  return undefined;
}
