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
