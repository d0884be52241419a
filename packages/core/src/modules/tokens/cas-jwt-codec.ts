import { webcrypto } from 'node:crypto';
import { CompactSign, EncryptJWT, compactVerify, jwtDecrypt, type CryptoKey } from 'jose';
import { InvalidConfigurationError, InvalidTokenError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { DecodeExpectations, JwtClaims, TicketCodec } from './ticket-codec.js';
import { encryptionKeyProblem, signingKeyProblem, type ContentEncryptionAlgorithm, type TokenKeys } from './token-keys.js';

interface ImportedKeys {
  readonly signing: CryptoKey;
  /** CBC-HS keys stay raw: jose splits them into MAC and cipher halves itself. */
  readonly encryption: CryptoKey | Uint8Array;
}

const SIGNING_ALGORITHM = 'HS512';
const KEY_MANAGEMENT = 'dir';

/**
 * Apereo CAS's ENCRYPT_AND_SIGN scheme (JwtTicketCipherExecutor): the claims JSON becomes a JWE
 * compact string (`dir` + the content encryption), whose UTF-8 bytes are the payload of a JWS
 * `HS512` with `typ: JWT`. A consumer written for CAS reads our tokens, and we read theirs. Unlike
 * CAS we do not deflate the JWE (`zip`): the claims may mix request parameters with the secret `jti`,
 * and compression would let the token's length leak it; jose4j reads both forms.
 * Keys are checked when built and imported once; verification accepts only the pinned algorithms.
 */
export class CasJwtCodec implements TicketCodec {
  private readonly keys: Promise<ImportedKeys>;
  private readonly encryptionAlgorithm: ContentEncryptionAlgorithm;

  /** Throws InvalidConfigurationError naming `tokens.signingKey` or `tokens.encryptionKey` for a bad key. */
  constructor(
    keys: TokenKeys,
    private readonly clock: Clock,
  ) {
    const signingProblem = signingKeyProblem(keys.signingKey);
    if (signingProblem) throw new InvalidConfigurationError('tokens.signingKey', signingProblem);
    const encryptionProblem = encryptionKeyProblem(keys.encryptionKey, keys.encryptionAlgorithm);
    if (encryptionProblem) throw new InvalidConfigurationError('tokens.encryptionKey', encryptionProblem);
    this.encryptionAlgorithm = keys.encryptionAlgorithm;
    this.keys = importKeys(keys);
  }

  async encode(claims: JwtClaims): Promise<string> {
    const keys = await this.keys;
    const jwe = await new EncryptJWT({ ...claims })
      .setProtectedHeader({ alg: KEY_MANAGEMENT, enc: this.encryptionAlgorithm })
      .encrypt(keys.encryption);
    return new CompactSign(new TextEncoder().encode(jwe)).setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: 'JWT' }).sign(keys.signing);
  }

  async decode(token: string, expectations: DecodeExpectations = {}): Promise<JwtClaims> {
    const keys = await this.keys;
    try {
      const { payload: jwe } = await compactVerify(token, keys.signing, { algorithms: [SIGNING_ALGORITHM] });
      const { payload } = await jwtDecrypt(new TextDecoder().decode(jwe), keys.encryption, {
        keyManagementAlgorithms: [KEY_MANAGEMENT],
        contentEncryptionAlgorithms: [this.encryptionAlgorithm],
        requiredClaims: ['jti', 'exp'],
        currentDate: new Date(this.clock.now()),
        ...(expectations.audience !== undefined && { audience: expectations.audience }),
      });
      return payload;
    } catch {
      // Signature, algorithm, decryption, format and claim failures all look the same to the caller.
      throw new InvalidTokenError();
    }
  }
}

async function importKeys(keys: TokenKeys): Promise<ImportedKeys> {
  const signingBytes = new TextEncoder().encode(keys.signingKey);
  const signing = await webcrypto.subtle.importKey('raw', signingBytes, { name: 'HMAC', hash: 'SHA-512' }, false, ['sign', 'verify']);
  const encryptionBytes = new Uint8Array(Buffer.from(keys.encryptionKey, 'base64url'));
  const encryption =
    keys.encryptionAlgorithm === 'A256GCM'
      ? await webcrypto.subtle.importKey('raw', encryptionBytes, 'AES-GCM', false, ['encrypt', 'decrypt'])
      : encryptionBytes;
  return { signing, encryption };
}
