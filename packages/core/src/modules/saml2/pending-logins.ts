import type { JsonValue, RecordStore, RecordStores } from '../../ports/record-store.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { AuthnRequestMessage } from './saml-requests.js';
import type { SpEndpoint } from './service-provider.js';

/**
 * An AuthnRequest (or an unsolicited SSO request) the IdP accepted and sent the browser to /login for:
 * what the answer needs once the login comes back, on whichever node it comes back to.
 */
export interface PendingSamlLogin {
  readonly spEntityId: string;
  /** The request answered; none for an unsolicited (IdP-initiated) response. */
  readonly request?: AuthnRequestMessage;
  /** Where the Response goes: an AssertionConsumerService of the SP's metadata. */
  readonly assertionConsumerService: SpEndpoint;
  readonly relayState?: string;
}

/**
 * The logins the IdP waits for, by an id of their own (the `{id}` of the login callback URL): held
 * when a request is accepted, shared by every node, answered once.
 */
export interface PendingSamlLogins {
  /** Holds the login until `expiresAt`; its id, fresh from the random source. */
  hold(login: PendingSamlLogin, expiresAt: number): Promise<string>;
  /** The login held under `id`, while it is held. */
  get(id: string): Promise<PendingSamlLogin | undefined>;
  /** Removes the login and returns it: of concurrent callers, on any node, exactly one gets it, so a request is answered once. */
  take(id: string): Promise<PendingSamlLogin | undefined>;
}

/** The saml2 module's namespace of pending logins in the storage's RecordStores. */
export const SAML_PENDING_NAMESPACE = 'saml2.pending';

/** An id of a pending login: what the callback URL carries. */
export const PENDING_ID = /^[A-Za-z0-9_-]{32,64}$/;

/** PendingSamlLogins on the storage's records. */
export class RecordPendingSamlLogins implements PendingSamlLogins {
  private readonly records: RecordStore<JsonValue>;

  constructor(
    records: RecordStores,
    private readonly random: RandomSource,
  ) {
    this.records = records.namespace<JsonValue>(SAML_PENDING_NAMESPACE);
  }

  async hold(login: PendingSamlLogin, expiresAt: number): Promise<string> {
    const id = Buffer.from(this.random.bytes(24)).toString('base64url');
    // Plain JSON: the request's optional fields that are absent are left out by stringify.
    await this.records.put(id, JSON.parse(JSON.stringify(login)) as JsonValue, expiresAt);
    return id;
  }

  async get(id: string): Promise<PendingSamlLogin | undefined> {
    if (!PENDING_ID.test(id)) return undefined;
    return (await this.records.get(id)) as PendingSamlLogin | undefined;
  }

  async take(id: string): Promise<PendingSamlLogin | undefined> {
    if (!PENDING_ID.test(id)) return undefined;
    return (await this.records.take(id)) as PendingSamlLogin | undefined;
  }
}
