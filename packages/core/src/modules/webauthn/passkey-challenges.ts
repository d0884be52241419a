import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore, RecordStores } from '../../ports/record-store.js';

/** The namespace of the login page's passkey challenges in the storage's RecordStores. */
export const WEBAUTHN_CHALLENGES_NAMESPACE = 'webauthn.challenges';

const CHALLENGE_ID_BYTES = 16;

/**
 * The challenges of the login page's passkey button, shared by every node (record namespace
 * `webauthn.challenges`): the page holds no login yet, so each challenge waits here under a random id
 * the page posts back with the answer, until it is taken (once: of concurrent takers one gets it) or
 * expires.
 */
export class PasskeyChallenges {
  private readonly records: RecordStore<string>;

  constructor(
    records: RecordStores,
    private readonly random: RandomSource,
  ) {
    this.records = records.namespace<string>(WEBAUTHN_CHALLENGES_NAMESPACE);
  }

  /** Keeps the challenge until `expiresAt`: the id its page posts back. */
  async issue(challenge: string, expiresAt: number): Promise<string> {
    const id = Buffer.from(this.random.bytes(CHALLENGE_ID_BYTES)).toString('base64url');
    await this.records.put(id, challenge, expiresAt);
    return id;
  }

  /** The live challenge of this id, gone from the store from now on; undefined for an unknown, used or expired one. */
  take(id: string): Promise<string | undefined> {
    return id === '' ? Promise.resolve(undefined) : this.records.take(id);
  }
}
