import { createHmac } from 'node:crypto';
import type { Clock } from '../../ports/clock.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore, RecordStores } from '../../ports/record-store.js';
import { KEPT_UNTIL_REMOVED } from './devices.js';

/** The namespace of the login page's passkey challenges in the storage's RecordStores. */
export const WEBAUTHN_CHALLENGES_NAMESPACE = 'webauthn.challenges';

/** The record of the key every challenge is derived from (no challenge id looks like it). */
const KEY_ID = 'key';
const KEY_BYTES = 32;
const NONCE_BYTES = 16;
/** A challenge id: a random nonce (base64url) and when its challenge expires (epoch ms). */
const CHALLENGE_ID = /^([A-Za-z0-9_-]{22})\.([0-9]{1,16})$/;

/** A challenge for the login page's passkey button: the id the page posts back, and the challenge the browser signs. */
export interface IssuedChallenge {
  readonly id: string;
  readonly challenge: Uint8Array<ArrayBuffer>;
}

/**
 * The challenges of the login page's passkey button, valid on every node (record namespace
 * `webauthn.challenges`). The login page is shown to anyone, as often as they like, so showing it
 * stores nothing: a challenge is an HMAC, under a key the namespace keeps for every node, of its id (a
 * random nonce and its expiry), so only the server can tell it and nobody can move its expiry. An
 * answer takes its id from then on (a record living until that expiry): once, and of concurrent
 * takers one gets it.
 */
export class PasskeyChallenges {
  private readonly records: RecordStore<string | true>;
  private key: Promise<Buffer> | undefined;

  constructor(
    records: RecordStores,
    private readonly random: RandomSource,
    private readonly clock: Clock,
    private readonly challengeSeconds: number,
  ) {
    this.records = records.namespace<string | true>(WEBAUTHN_CHALLENGES_NAMESPACE);
  }

  /** A new challenge, answerable for `challengeSeconds`: nothing is stored. */
  async issue(): Promise<IssuedChallenge> {
    const nonce = Buffer.from(this.random.bytes(NONCE_BYTES)).toString('base64url');
    const id = `${nonce}.${this.clock.now() + this.challengeSeconds * 1000}`;
    return { id, challenge: await this.challengeOf(id) };
  }

  /** The challenge of this id (base64url, as the browser's answer carries it), taken from now on; undefined for a forged, used or expired one. */
  async take(id: string): Promise<string | undefined> {
    const expiresAt = Number(CHALLENGE_ID.exec(id)?.[2] ?? Number.NaN);
    const now = this.clock.now();
    // An expiry beyond challengeSeconds was not made here: it is refused before it takes a place in the store.
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= now || expiresAt > now + this.challengeSeconds * 1000) return undefined;
    if (!(await this.records.insert(id, true, expiresAt))) return undefined;
    return Buffer.from(await this.challengeOf(id)).toString('base64url');
  }

  private async challengeOf(id: string): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(createHmac('sha256', await this.challengeKey()).update(`tessera passkey challenge ${id}`).digest());
  }

  /** The key of every node: the first node to need it makes it, the others read it. */
  private challengeKey(): Promise<Buffer> {
    this.key ??= this.loadKey().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  private async loadKey(): Promise<Buffer> {
    const fresh = Buffer.from(this.random.bytes(KEY_BYTES)).toString('base64url');
    const kept = (await this.records.insert(KEY_ID, fresh, KEPT_UNTIL_REMOVED)) ? fresh : await this.records.get(KEY_ID);
    if (typeof kept !== 'string') throw new Error(`the passkey challenge key of record namespace ${WEBAUTHN_CHALLENGES_NAMESPACE} is missing`);
    return Buffer.from(kept, 'base64url');
  }
}
