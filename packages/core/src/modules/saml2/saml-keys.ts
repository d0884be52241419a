import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';

/**
 * Where a key is in its rotation: `current` signs (or decrypts first), `next` is published in the IdP
 * metadata before it is used, so SPs that fetch the metadata know it when it starts signing;
 * `previous` stays published for a while after it stopped.
 */
export type KeyState = 'current' | 'next' | 'previous';

/** A key pair of the IdP, both PEM: an RSA private key (PKCS#8) and its self-signed certificate. */
export type SamlKey = { readonly state: KeyState; readonly privateKey: string; readonly certificate: string };

/**
 * The saml2 module's secrets: its signing keys and its encryption keys, each a current one and at most
 * a next or a previous one, and the salt of its persistent NameIDs. Every node needs the same.
 */
export type SamlKeySet = {
  readonly signing: readonly SamlKey[];
  readonly encryption: readonly SamlKey[];
  readonly persistentIdSalt: string;
};

const STATES: readonly KeyState[] = ['current', 'next', 'previous'];

/** What is wrong with a key set read from a file or a setting, or undefined. */
export function samlKeySetProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'is not JSON of the form {"signing": [...], "encryption": [...], "persistentIdSalt": "..."}';
  const { signing, encryption, persistentIdSalt } = value as Record<string, unknown>;
  for (const [use, keys] of [['signing', signing], ['encryption', encryption]] as const) {
    if (!Array.isArray(keys) || keys.length === 0 || keys.length > 2) return `needs "${use}": the current key, and at most a next or a previous one`;
    for (const [index, key] of keys.entries()) {
      const problem = keyProblem(key);
      if (problem) return `${use}[${index}] ${problem}`;
    }
    const states = keys.map((key) => (key as SamlKey).state);
    if (states.filter((state) => state === 'current').length !== 1) return `"${use}" needs exactly one current key`;
    if (new Set(states).size !== states.length) return `"${use}" holds two keys in one state`;
  }
  if (typeof persistentIdSalt !== 'string' || persistentIdSalt.length < 32) return 'needs "persistentIdSalt": a string of at least 32 characters';
  return undefined;
}

function keyProblem(key: unknown): string | undefined {
  if (typeof key !== 'object' || key === null) return 'is not a key';
  const { state, privateKey, certificate } = key as Record<string, unknown>;
  if (typeof state !== 'string' || !(STATES as readonly string[]).includes(state)) return 'needs "state": current, next or previous';
  if (typeof privateKey !== 'string' || typeof certificate !== 'string') return 'needs "privateKey" and "certificate" as PEM';
  let parsed: X509Certificate;
  try {
    parsed = new X509Certificate(certificate);
  } catch {
    return 'has a "certificate" that is no PEM X.509 certificate';
  }
  try {
    const priv = createPrivateKey(privateKey);
    if (priv.asymmetricKeyType !== 'rsa') return 'has a "privateKey" that is not RSA (SAML peers expect RSA)';
    const derived = createPublicKey(priv).export({ type: 'spki', format: 'der' });
    if (!derived.equals(parsed.publicKey.export({ type: 'spki', format: 'der' }))) return 'has a "certificate" of another key than its "privateKey"';
  } catch {
    return 'has a "privateKey" that is no PEM private key';
  }
  return undefined;
}

/** The key of a use in a state. */
export function keyInState(keys: readonly SamlKey[], state: KeyState): SamlKey | undefined {
  return keys.find((key) => key.state === state);
}

/** The key that signs (or that encrypted messages are decrypted with first). */
export function currentKey(keys: readonly SamlKey[]): SamlKey {
  return keyInState(keys, 'current')!;
}

/**
 * A rotation takes two steps, each once SPs have fetched the metadata since the last: publish a new
 * key as the next one (the current one still signs; a previous one is dropped), then promote it (the
 * next key becomes current, the current one previous, still published while SPs move over). So no SP
 * ever sees a signature by a key its copy of the metadata does not hold.
 */
export function publishNextKey(keys: readonly SamlKey[], fresh: { readonly privateKey: string; readonly certificate: string }): readonly SamlKey[] {
  return [currentKey(keys), { ...fresh, state: 'next' }];
}

/** The second step of a rotation (publishNextKey): undefined when there is no next key to promote. */
export function promoteNextKey(keys: readonly SamlKey[]): readonly SamlKey[] | undefined {
  const next = keyInState(keys, 'next');
  if (next === undefined) return undefined;
  return [{ ...next, state: 'current' }, { ...currentKey(keys), state: 'previous' }];
}
