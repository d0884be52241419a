import { clientAddressGroupKey } from '../../domain/client-address.js';
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
  /**
   * The SHA-256 (base64url) of the random key the browser that sent the request was given in a cookie:
   * the login is answered to that browser only, so a pending login's id (in the /login URL) is not
   * enough to finish it elsewhere.
   */
  readonly browserKeyDigest: string;
}

/**
 * The logins the IdP waits for, by an id of their own (the `{id}` of the login callback URL): held
 * when a request is accepted, shared by every node, answered once.
 */
export interface PendingSamlLogins {
  /**
   * Holds the login until `expiresAt`, counted for the client address that sent it (an IPv6 address:
   * its /64 network); its id, fresh from the random source. Past the limit of logins per address, the
   * address's earliest are dropped (a login that still comes back for one finds nothing), so a flood
   * from one address holds that many at most, not one per request. The new one is never dropped.
   */
  hold(login: PendingSamlLogin, expiresAt: number, clientAddress: string): Promise<string>;
  /** The login held under `id`, while it is held. */
  get(id: string): Promise<PendingSamlLogin | undefined>;
  /** Removes the login and returns it: of concurrent callers, on any node, exactly one gets it, so a request is answered once. */
  take(id: string): Promise<PendingSamlLogin | undefined>;
}

/** The saml2 module's namespace of pending logins in the storage's RecordStores. */
export const SAML_PENDING_NAMESPACE = 'saml2.pending';

/** An id of a pending login: what the callback URL carries. */
export const PENDING_ID = /^[A-Za-z0-9_-]{32,64}$/;

/** A held login as stored: the login, and the order this node held it in (with its expiry, which is the hold time plus a constant). */
interface HeldLogin {
  readonly login: JsonValue;
  readonly sequence: number;
}

/** PendingSamlLogins on the storage's records: each login in the group of its client address, which bounds how many one address holds. */
export class RecordPendingSamlLogins implements PendingSamlLogins {
  private readonly records: RecordStore<JsonValue>;
  /** Orders the logins this node holds within one expiry millisecond. */
  private sequence = 0;

  constructor(
    records: RecordStores,
    private readonly random: RandomSource,
    /** The most logins one client address (group) may have pending. */
    private readonly perAddress: number,
  ) {
    this.records = records.namespace<JsonValue>(SAML_PENDING_NAMESPACE);
  }

  async hold(login: PendingSamlLogin, expiresAt: number, clientAddress: string): Promise<string> {
    const id = Buffer.from(this.random.bytes(24)).toString('base64url');
    const group = clientAddressGroupKey(clientAddress);
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    // Plain JSON: the request's optional fields that are absent are left out by stringify.
    const held: HeldLogin = { login: JSON.parse(JSON.stringify(login)) as JsonValue, sequence: this.sequence };
    await this.records.put(id, held as unknown as JsonValue, expiresAt, { group });
    const pending = await this.records.findByGroup(group);
    const excess = pending.length - this.perAddress;
    if (excess > 0) {
      const earliest = pending
        .filter((record) => record.id !== id)
        .sort((one, other) => one.expiresAt - other.expiresAt || sequenceOf(one.value) - sequenceOf(other.value));
      for (const { id: dropped } of earliest.slice(0, excess)) await this.records.delete(dropped);
    }
    return id;
  }

  async get(id: string): Promise<PendingSamlLogin | undefined> {
    if (!PENDING_ID.test(id)) return undefined;
    return loginOf(await this.records.get(id));
  }

  async take(id: string): Promise<PendingSamlLogin | undefined> {
    if (!PENDING_ID.test(id)) return undefined;
    return loginOf(await this.records.take(id));
  }
}

function loginOf(value: JsonValue | undefined): PendingSamlLogin | undefined {
  return value === undefined ? undefined : ((value as unknown as HeldLogin).login as unknown as PendingSamlLogin);
}

function sequenceOf(value: JsonValue): number {
  return (value as unknown as HeldLogin).sequence;
}
