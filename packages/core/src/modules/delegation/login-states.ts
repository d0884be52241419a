import { createHash } from 'node:crypto';
import { clientAddressGroupKey } from '../../domain/client-address.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore, RecordStores } from '../../ports/record-store.js';
import type { UpstreamSession } from './upstream.js';

/** The namespace of the logins waiting upstream, in the storage's RecordStores. */
export const DELEGATION_STATES_NAMESPACE = 'delegation.states';
/** The namespace of the logins back from upstream, waiting for the login form's post. */
export const DELEGATION_PROOFS_NAMESPACE = 'delegation.proofs';

/** The namespace of what a login through a provider with `logout` keeps for it, by the login's key, until its session is made. */
export const DELEGATION_LOGINS_NAMESPACE = 'delegation.logins';
/** The namespace of what a login session made through a provider with `logout` keeps for it, by the session (its TGT id's SHA-256). */
export const DELEGATION_SESSIONS_NAMESPACE = 'delegation.sessions';
/** The namespace of the browsers gone upstream to log out, by the state they come back with. */
export const DELEGATION_LOGOUTS_NAMESPACE = 'delegation.logouts';

/** What a login through a provider with `logout` keeps for the upstream's logout: the provider, and what its upstream will need (an ID token). */
export type KeptUpstreamSession = { readonly provider: string; readonly session: UpstreamSession };

/** A browser gone upstream to log out: the provider, and the service the logout goes on to afterwards (one tessera allowed). */
export type LeftLogout = { readonly provider: string; readonly service?: string };

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

/** A user an upstream proved, waiting for the login form's post to make the session. */
export type DelegatedProof = {
  readonly provider: string;
  /** SHA-256 of the delegation cookie of the browser that left: only that browser may post the proof. */
  readonly browser: string;
  readonly principal: { readonly id: string; readonly attributes: Readonly<Record<string, readonly string[]>> };
};

const ID_BYTES = 32;

/**
 * The module's stores on records, shared by every node: the logins waiting upstream (by their state,
 * taken once when the browser comes back, whatever the answer) and the proofs of those that came back
 * (by a random id the page posts to the login form, taken once); for providers with `logout`, what a
 * login keeps for the upstream's logout (by the login's key until its session is made, then by the
 * session, as long as the session may live, and gone when it ends), and the browsers gone upstream to
 * log out (by their state, taken once).
 */
export class DelegationRecords {
  private readonly waiting: RecordStore<WaitingLogin>;
  private readonly proofs: RecordStore<DelegatedProof>;
  private readonly logins: RecordStore<KeptUpstreamSession>;
  private readonly sessions: RecordStore<KeptUpstreamSession>;
  private readonly logouts: RecordStore<LeftLogout>;

  constructor(
    records: RecordStores,
    private readonly random: RandomSource,
    /** The most logins one client address (an IPv6 address: its /64) may have waiting upstream. */
    private readonly waitingPerAddress: number,
  ) {
    this.waiting = records.namespace<WaitingLogin>(DELEGATION_STATES_NAMESPACE);
    this.proofs = records.namespace<DelegatedProof>(DELEGATION_PROOFS_NAMESPACE);
    this.logins = records.namespace<KeptUpstreamSession>(DELEGATION_LOGINS_NAMESPACE);
    this.sessions = records.namespace<KeptUpstreamSession>(DELEGATION_SESSIONS_NAMESPACE);
    this.logouts = records.namespace<LeftLogout>(DELEGATION_LOGOUTS_NAMESPACE);
  }

  /** A fresh random value, base64url: a state, a nonce, a PKCE verifier, a proof id. */
  randomValue(): string {
    return Buffer.from(this.random.bytes(ID_BYTES)).toString('base64url');
  }

  /**
   * Keeps the login under its state, counted for the client address that left: past the limit per
   * address, the address's earliest waiting logins are dropped (coming back, they find nothing), so a
   * flood of clicks from one address holds that many at most. The new one is never dropped.
   */
  async wait(state: string, login: WaitingLogin, expiresAt: number, clientAddress: string): Promise<void> {
    const group = clientAddressGroupKey(clientAddress);
    await this.waiting.put(state, login, expiresAt, { group });
    const waiting = await this.waiting.findByGroup(group);
    const excess = waiting.length - this.waitingPerAddress;
    if (excess <= 0) return;
    // Equal expiries (one clock millisecond) are dropped in no particular order.
    const earliest = waiting.filter(({ id }) => id !== state).sort((one, other) => one.expiresAt - other.expiresAt);
    for (const { id } of earliest.slice(0, excess)) await this.waiting.delete(id);
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

  /** Keeps what a login (by its key, `delegatedLoginKey`) has for the upstream's logout, until its session is made. */
  async keepLogin(loginKey: string, kept: KeptUpstreamSession, expiresAt: number): Promise<void> {
    await this.logins.put(loginKey, kept, expiresAt);
  }

  /** What a login kept, gone from the store from now on; undefined for an unknown, taken or expired one. */
  takeLogin(loginKey: string): Promise<KeptUpstreamSession | undefined> {
    return loginKey === '' ? Promise.resolve(undefined) : this.logins.take(loginKey);
  }

  /** Keeps it with the login session `tgtId` (stored under the id's SHA-256, never the id), until `expiresAt`. */
  async keepSession(tgtId: string, kept: KeptUpstreamSession, expiresAt: number): Promise<void> {
    await this.sessions.put(sessionKey(tgtId), kept, expiresAt);
  }

  /** What the login session `tgtId` keeps for the upstream's logout; undefined when none (or expired). */
  session(tgtId: string): Promise<KeptUpstreamSession | undefined> {
    return this.sessions.get(sessionKey(tgtId));
  }

  /** The login session `tgtId` ended: what it kept goes. */
  async forgetSession(tgtId: string): Promise<void> {
    await this.sessions.delete(sessionKey(tgtId));
  }

  async leaveForLogout(state: string, left: LeftLogout, expiresAt: number): Promise<void> {
    await this.logouts.put(state, left, expiresAt);
  }

  /** The logout that left with this state, gone from the store from now on; undefined for an unknown, used or expired one. */
  takeLogout(state: string): Promise<LeftLogout | undefined> {
    return state === '' ? Promise.resolve(undefined) : this.logouts.take(state);
  }
}

/** A session's key in the store: its TGT id's SHA-256, so no storage key holds a live ticket id. */
function sessionKey(tgtId: string): string {
  return createHash('sha256').update(tgtId).digest('base64url');
}
