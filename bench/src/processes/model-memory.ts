import type { Adapter, AdapterPayload } from 'oidc-provider';

/** A payload as held, and when it stops existing (epoch ms; Infinity when the library named no lifetime). */
interface Held {
  readonly payload: AdapterPayload;
  readonly expiresAt: number;
}

/** How often expired payloads are freed, so a long run holds what lives, as tessera's memory store does. */
const SWEEP_INTERVAL_MS = 10_000;

/**
 * node-oidc-provider's storage as the library's own in-memory adapter keeps it, for the reference the
 * OIDC rows are measured against: the payload objects themselves in a Map (no copy, no JSON), an index
 * of each grant's tokens and of each session's uid, a code consumed by marking its payload. Unlike the
 * library's development adapter it never drops a live payload (that one is an LRU of 1,000 entries,
 * smaller than the bench's pool of codes), and frees expired ones every ten seconds.
 */
export class ModelMemory {
  private readonly payloads = new Map<string, Held>();
  private readonly grants = new Map<string, Set<string>>();
  private readonly sessionUids = new Map<string, string>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();

  /** The library's Adapter for `model`, over this memory. */
  adapter(model: string): Adapter {
    return new ModelAdapter(model, this);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  get(key: string): AdapterPayload | undefined {
    const held = this.payloads.get(key);
    if (held === undefined) return undefined;
    if (held.expiresAt > Date.now()) return held.payload;
    this.remove(key);
    return undefined;
  }

  set(key: string, payload: AdapterPayload, expiresIn: number | undefined): void {
    this.remove(key);
    this.payloads.set(key, { payload, expiresAt: expiresIn === undefined ? Number.POSITIVE_INFINITY : Date.now() + expiresIn * 1000 });
    if (typeof payload.grantId === 'string') {
      const members = this.grants.get(payload.grantId);
      if (members === undefined) this.grants.set(payload.grantId, new Set([key]));
      else members.add(key);
    }
  }

  remove(key: string): void {
    const held = this.payloads.get(key);
    if (held === undefined) return;
    this.payloads.delete(key);
    const { grantId, uid } = held.payload;
    if (typeof grantId === 'string') this.grants.get(grantId)?.delete(key);
    if (typeof uid === 'string' && this.sessionUids.get(uid) === key) this.sessionUids.delete(uid);
  }

  revokeGrant(grantId: string): void {
    for (const key of this.grants.get(grantId) ?? []) this.remove(key);
    this.grants.delete(grantId);
  }

  indexSession(uid: string, key: string): void {
    this.sessionUids.set(uid, key);
  }

  sessionKey(uid: string): string | undefined {
    return this.sessionUids.get(uid);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, held] of this.payloads) if (held.expiresAt <= now) this.remove(key);
    for (const [grantId, members] of this.grants) if (members.size === 0) this.grants.delete(grantId);
  }
}

/** One model's payloads in a ModelMemory, keyed `<model>:<id>`. */
class ModelAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly memory: ModelMemory,
  ) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
    const key = this.key(id);
    this.memory.set(key, payload, expiresIn);
    if (this.model === 'Session' && typeof payload.uid === 'string') this.memory.indexSession(payload.uid, key);
    return Promise.resolve();
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return Promise.resolve(this.memory.get(this.key(id)));
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const key = this.memory.sessionKey(uid);
    return Promise.resolve(key === undefined ? undefined : this.memory.get(key));
  }

  /** The device flow is off, as in tessera: no user codes. */
  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  consume(id: string): Promise<void> {
    const payload = this.memory.get(this.key(id));
    if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000);
    return Promise.resolve();
  }

  destroy(id: string): Promise<void> {
    this.memory.remove(this.key(id));
    return Promise.resolve();
  }

  revokeByGrantId(grantId: string): Promise<void> {
    this.memory.revokeGrant(grantId);
    return Promise.resolve();
  }
}
