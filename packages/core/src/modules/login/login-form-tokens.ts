import { hash, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, type CryptoKey } from 'jose';
import type { Clock } from '../../ports/clock.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { LoginTokenRefusedEvent } from './events.js';
import type { FormTokenStore } from './form-token-store.js';
import type { LoginKeys } from './login-keys.js';

const ALGORITHM = 'HS256';
const BROWSER_ID_BYTES = 32;
const TOKEN_ID_BYTES = 16;

/** Why a form token was refused, for the audit trail. */
export type FormTokenRefusal = LoginTokenRefusedEvent['reason'];

/**
 * The login form's anti-forgery tokens: one-time, bound to the browser, valid on every node. A token
 * is a JWS (HS256) naming a digest of the browser's id (a random value in its own cookie), a random
 * `jti` and its expiry; accepting it claims the `jti` in the shared FormTokenStore, so it works once.
 * Nothing is stored when a form is shown: only a used token takes a place in the store.
 */
export class LoginFormTokens {
  /** Imported once: jose would import raw bytes into a CryptoKey on every token issued and checked. */
  private readonly key: Promise<CryptoKey>;

  constructor(
    keys: Pick<LoginKeys, 'form'>,
    private readonly used: FormTokenStore,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly lifetimeSeconds: number,
  ) {
    this.key = webcrypto.subtle.importKey('raw', keys.form, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  /** A new random browser id, for a browser that has none yet. */
  newBrowserId(): string {
    return this.randomText(BROWSER_ID_BYTES);
  }

  async issue(browserId: string): Promise<string> {
    const now = Math.floor(this.clock.now() / 1000);
    const key = await this.key;
    return new SignJWT({ b: browserDigest(browserId) })
      .setProtectedHeader({ alg: ALGORITHM })
      .setJti(this.randomText(TOKEN_ID_BYTES))
      .setIssuedAt(now)
      .setExpirationTime(now + this.lifetimeSeconds)
      .sign(key);
  }

  /** Accepts a token issued to this browser, not expired, used for the first time; else says why not. */
  async accept(token: string | undefined, browserId: string | undefined): Promise<FormTokenRefusal | undefined> {
    if (token === undefined || token === '' || browserId === undefined) return 'missing';
    let claims: { b?: unknown; jti?: unknown; exp?: unknown };
    try {
      ({ payload: claims } = await jwtVerify(token, await this.key, { algorithms: [ALGORITHM], currentDate: new Date(this.clock.now()), requiredClaims: ['jti', 'exp'] }));
    } catch (error) {
      return (error as { code?: unknown }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid';
    }
    if (claims.b !== browserDigest(browserId) || typeof claims.jti !== 'string' || typeof claims.exp !== 'number') return 'invalid';
    return (await this.used.claim(claims.jti, claims.exp * 1000)) ? undefined : 'reused';
  }

  private randomText(bytes: number): string {
    return Buffer.from(this.random.bytes(bytes)).toString('base64url');
  }
}

/** The page carries a digest, never the cookie's value itself. */
function browserDigest(browserId: string): string {
  return hash('sha256', `tessera browser ${browserId}`, 'base64url');
}
