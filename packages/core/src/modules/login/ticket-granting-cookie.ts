import { webcrypto } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, type CryptoKey } from 'jose';
import type { LoginKeys } from './login-keys.js';

const HEADER = { alg: 'dir', enc: 'A256GCM' } as const;

/**
 * The value of the ticket-granting cookie (CAS's TGC): the TGT id encrypted and authenticated
 * (JWE, `dir` + A256GCM), so a browser can neither read its ticket id nor make up another one.
 */
export class TicketGrantingCookie {
  /** Imported once: jose would import raw bytes into a CryptoKey on every seal and open. */
  private readonly key: Promise<CryptoKey>;

  constructor(keys: Pick<LoginKeys, 'cookie'>) {
    this.key = webcrypto.subtle.importKey('raw', keys.cookie, 'AES-GCM', false, ['encrypt', 'decrypt']);
  }

  async seal(tgtId: string): Promise<string> {
    return new CompactEncrypt(new TextEncoder().encode(tgtId)).setProtectedHeader(HEADER).encrypt(await this.key);
  }

  /** The TGT id the value stands for; undefined for anything not sealed with this key. */
  async open(value: string): Promise<string | undefined> {
    try {
      const { plaintext } = await compactDecrypt(value, await this.key, { keyManagementAlgorithms: [HEADER.alg], contentEncryptionAlgorithms: [HEADER.enc] });
      return new TextDecoder().decode(plaintext);
    } catch {
      return undefined;
    }
  }
}
