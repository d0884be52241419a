import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore, RecordStores } from '../../ports/record-store.js';
import type { UpstreamSession } from './upstream.js';

/** The namespace of the logins waiting upstream, in the storage's RecordStores. */
export const DELEGATION_STATES_NAMESPACE = 'delegation.states';
/** The namespace of the logins back from upstream, waiting for the login form's post. */
export const DELEGATION_PROOFS_NAMESPACE = 'delegation.proofs';

/** What a login waiting upstream keeps, under its state: the provider, the browser, the secrets, and the login form it left. */
export type WaitingLogin = {
  readonly provider: string;
  /** SHA-256 of the browser's delegation cookie: the login comes back in the browser that left. */
  readonly browser: string;
  readonly nonce: string;
  readonly codeVerifier: string;
  readonly form: LeftForm;
};

/** What the login form posted when the user chose the provider, posted again once the user is back. */
export type LeftForm = { readonly formToken: string; readonly service?: string; readonly renew?: true; readonly method?: 'POST' };

/**
 * A user an upstream proved, waiting for the login form's post to make the session; with `session`,
 * what the upstream's single logout will need of this login (a SAML NameID and SessionIndex). It is
 * not yet carried into the tessera session: upstream logout, when it is built, takes it from here to
 * the session's record.
 */
export type DelegatedProof = {
  readonly provider: string;
  readonly principal: { readonly id: string; readonly attributes: Readonly<Record<string, readonly string[]>> };
  readonly session?: UpstreamSession;
};

const ID_BYTES = 32;

/**
 * The module's two stores on records, shared by every node: the logins waiting upstream (by their
 * state, taken once when the browser comes back, whatever the answer) and the proofs of those that
 * came back (by a random id the page posts to the login form, taken once).
 */
export class DelegationRecords {
  private readonly waiting: RecordStore<WaitingLogin>;
  private readonly proofs: RecordStore<DelegatedProof>;

  constructor(
    records: RecordStores,
    private readonly random: RandomSource,
  ) {
    this.waiting = records.namespace<WaitingLogin>(DELEGATION_STATES_NAMESPACE);
    this.proofs = records.namespace<DelegatedProof>(DELEGATION_PROOFS_NAMESPACE);
  }

  /** A fresh random value, base64url: a state, a nonce, a PKCE verifier, a proof id. */
  randomValue(): string {
    return Buffer.from(this.random.bytes(ID_BYTES)).toString('base64url');
  }

  async wait(state: string, login: WaitingLogin, expiresAt: number): Promise<void> {
    await this.waiting.put(state, login, expiresAt);
  }

  /** The login waiting under this state, gone from the store from now on; undefined for an unknown, used or expired one. */
  takeWaiting(state: string): Promise<WaitingLogin | undefined> {
    return state === '' ? Promise.resolve(undefined) : this.waiting.take(state);
  }

  async prove(proof: DelegatedProof, expiresAt: number): Promise<string> {
    const id = this.randomValue();
    await this.proofs.put(id, proof, expiresAt);
    return id;
  }

  takeProof(id: string): Promise<DelegatedProof | undefined> {
    return id === '' ? Promise.resolve(undefined) : this.proofs.take(id);
  }
}
