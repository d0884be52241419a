import { generateKeyPairSync } from 'node:crypto';
import type { RandomSource } from '../../ports/random-source.js';

/** A private JSON Web Key as the provider signs with it (RSA or EC, `kid` and `alg` set). */
export type OidcSigningKey = { readonly kty: string; readonly kid: string; readonly alg: string; readonly use: 'sig' } & Readonly<Record<string, string>>;

/**
 * The oidc module's secrets: the signing keys, and the secrets its cookies are signed with. The first
 * key is the current RS256 key, which signs unless a client says otherwise; an RS256 key after it is the
 * previous one (a rotation keeps it published, so tokens signed before still verify). Beside them, keys
 * a client may name by `kid` (Apereo's jwksKeyId) or by algorithm (idTokenSigningAlg): EC keys, one per
 * algorithm (ES256 on P-256, ES384 on P-384, ES512 on P-521). Every key is published in the JWKS.
 */
export type OidcKeySet = {
  readonly keys: readonly OidcSigningKey[];
  readonly cookieSecrets: readonly string[];
};

const RSA_BITS = 2048;

/** The curve of each EC signing algorithm a key of the set may have. */
const EC_CURVES: Readonly<Record<string, string>> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

/** The signing algorithms of a key set's keys, the current key's first. */
export function oidcSigningAlgorithms(keys: OidcKeySet): string[] {
  return [...new Set(keys.keys.map((key) => key.alg))];
}

/** A fresh RS256 signing key, named by a random `kid`. */
export function generateOidcSigningKey(random: RandomSource): OidcSigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: RSA_BITS });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, string>;
  return { ...jwk, kty: 'RSA', kid: Buffer.from(random.bytes(12)).toString('base64url'), alg: 'RS256', use: 'sig' };
}

/** A fresh key set; with `previous`, its current signing key stays published after the new one (a rotation), and its EC keys stay as they are. */
export function generateOidcKeySet(random: RandomSource, previous?: OidcKeySet): OidcKeySet {
  const kept = previous?.keys[0];
  return {
    keys: [generateOidcSigningKey(random), ...(kept ? [kept] : []), ...(previous?.keys.filter((key) => key.kty === 'EC') ?? [])],
    cookieSecrets: [Buffer.from(random.bytes(32)).toString('base64url'), ...(previous?.cookieSecrets.slice(0, 1) ?? [])],
  };
}

/** What is wrong with a key set read from a file or a setting, or undefined. */
export function oidcKeySetProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'is not JSON of the form {"keys": [...], "cookieSecrets": [...]}';
  const { keys, cookieSecrets } = value as { keys?: unknown; cookieSecrets?: unknown };
  if (!Array.isArray(keys) || keys.length === 0) return 'needs "keys": the current signing key, then at most the previous one, and EC keys';
  const kids = new Set<string>();
  const algorithms: string[] = [];
  for (const [index, key] of keys.entries()) {
    if (typeof key !== 'object' || key === null) return `keys[${index}] is not a JSON Web Key`;
    const { kty, kid, d, alg, crv } = key as Record<string, unknown>;
    if (typeof d !== 'string' || typeof kid !== 'string' || kid === '') return `keys[${index}] is not a private JSON Web Key with a kid`;
    if (kids.has(kid)) return `keys[${index}] has the kid ${JSON.stringify(kid)} of another key: a client names a key by its kid`;
    kids.add(kid);
    if (kty === 'RSA' && alg === 'RS256') {
      if (index > 1) return `keys[${index}] is a third RS256 key: the current one comes first, then at most the previous one`;
    } else if (kty === 'EC' && typeof alg === 'string' && EC_CURVES[alg] === crv) {
      if (index === 0) return 'keys[0] is an EC key: the current RS256 key comes first';
      if (algorithms.includes(alg)) return `keys[${index}] is a second ${alg} key: one EC key per algorithm`;
    } else {
      return `keys[${index}] is neither an RS256 key nor an EC key of ES256 (P-256), ES384 (P-384) or ES512 (P-521)`;
    }
    algorithms.push(alg);
  }
  if (!Array.isArray(cookieSecrets) || cookieSecrets.length === 0 || !cookieSecrets.every((secret) => typeof secret === 'string' && secret.length >= 32)) {
    return 'needs "cookieSecrets": strings of at least 32 characters, the current one first';
  }
  return undefined;
}
