import { createHash } from 'node:crypto';
import type { RecordStore, RecordStores } from '../../ports/record-store.js';

/**
 * The ids of the requests the IdP accepted, per issuer, until they could no longer be accepted
 * anyway (their IssueInstant out of the allowed window): a request id is accepted once, on any node.
 */
export interface SamlRequestIdStore {
  /**
   * True the first time `issuer`'s `requestId` is claimed while an earlier claim of it is live (until
   * `expiresAt`); false for a replay. Of concurrent claims of one id, on any node, exactly one gets true.
   */
  claim(issuer: string, requestId: string, expiresAt: number): Promise<boolean>;
}

/** The saml2 module's namespace of accepted request ids in the storage's RecordStores. */
export const SAML_REQUEST_ID_NAMESPACE = 'saml2.request-ids';

/**
 * SamlRequestIdStore on the storage's records: an insert per (issuer, id), keyed by their SHA-256 so
 * that a key is short whatever an SP sends (an id is up to the SP; the issuer an entity id URI).
 */
export class RecordSamlRequestIdStore implements SamlRequestIdStore {
  private readonly accepted: RecordStore<true>;

  constructor(records: RecordStores) {
    this.accepted = records.namespace<true>(SAML_REQUEST_ID_NAMESPACE);
  }

  claim(issuer: string, requestId: string, expiresAt: number): Promise<boolean> {
    const key = createHash('sha256').update(issuer, 'utf8').update('\0').update(requestId, 'utf8').digest('base64url');
    return this.accepted.insert(key, true, expiresAt);
  }
}
