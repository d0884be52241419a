import type { RecordStore, RecordStores } from '../../ports/record-store.js';

/**
 * The used anti-forgery tokens of the login form, shared by every node, so each token is accepted
 * once across the cluster. Tokens prove their own binding and expiry (they are signed); the store
 * only remembers which were used. Every implementation passes the contract suite in @tessera/testkit.
 */
export interface FormTokenStore {
  /**
   * Records `tokenId` as used until `expiresAt` (epoch ms). True for its first claim; false for every
   * later one until `expiresAt` has passed. Of any number of concurrent claims, exactly one is true.
   * After `expiresAt` the store may forget the id (the token itself is expired by then).
   */
  claim(tokenId: string, expiresAt: number): Promise<boolean>;
}

/** The login module's namespace of used form tokens in the storage's RecordStores. */
export const FORM_TOKEN_NAMESPACE = 'login.form-tokens';

/**
 * FormTokenStore on the storage's records: a used token is a record (`true`) living until the token's
 * own expiry, and a claim is an insert, of which exactly one of any concurrent callers wins.
 */
export class RecordFormTokenStore implements FormTokenStore {
  private readonly used: RecordStore<true>;

  constructor(records: RecordStores) {
    this.used = records.namespace<true>(FORM_TOKEN_NAMESPACE);
  }

  claim(tokenId: string, expiresAt: number): Promise<boolean> {
    return this.used.insert(tokenId, true, expiresAt);
  }
}
