import { CompactEncrypt, compactDecrypt } from 'jose';
import type { LoginKeys } from './login-keys.js';

const HEADER = { alg: 'dir', enc: 'A256GCM' } as const;

/**
 * The value of the ticket-granting cookie (CAS's TGC): the TGT id encrypted and authenticated
 * (JWE, `dir` + A256GCM), so a browser can neither read its ticket id nor make up another one.
 */
export class TicketGrantingCookie {
  constructor(private readonly keys: Pick<LoginKeys, 'cookie'>) {}

  seal(tgtId: string): Promise<string> {
    return new CompactEncrypt(new TextEncoder().encode(tgtId)).setProtectedHeader(HEADER).encrypt(this.keys.cookie);
  }

  /** The TGT id the value stands for; undefined for anything not sealed with this key. */
  async open(value: string): Promise<string | undefined> {
    try {
      const { plaintext } = await compactDecrypt(value, this.keys.cookie, { keyManagementAlgorithms: [HEADER.alg], contentEncryptionAlgorithms: [HEADER.enc] });
      return new TextDecoder().decode(plaintext);
    } catch {
      return undefined;
    }
  }
}
