import { clientAddressGroupKey, type Clock, type RecordStore, type RecordStores } from '@tessera/core';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/**
 * The provider's interactions a client address has pending, at most `limit`: an authorization request
 * from a browser that has not logged in makes the provider keep it (an Interaction record) until the
 * login comes back. Past the limit, the address's earliest pending interactions are dropped (a login
 * that still comes back for one is told to start again from the application), so a flood from one
 * address (an IPv6 /64 network) holds `limit` of them, not one per request. An index record per pending interaction, grouped
 * by the address, keeps the count on every node that shares the storage; it lives as long as its
 * interaction, and goes when the interaction does.
 */
export class PendingInteractions {
  /** Per pending interaction (by its uid): when it started, in the group of its client address. */
  private readonly started: RecordStore<StartedAt>;
  /** Orders the interactions this node starts within one millisecond. */
  private sequence = 0;

  constructor(
    records: RecordStores,
    private readonly limit: number,
    private readonly clock: Clock,
  ) {
    this.started = records.namespace<StartedAt>('oidc.interaction-address');
  }

  /**
   * The provider's storage of interactions with the count kept: a destroyed interaction (its login
   * came back, or it was dropped) no longer counts for its address.
   */
  tracking(interactions: Adapter): Adapter {
    return new TrackedInteractions(interactions, this.started);
  }

  /**
   * An interaction `uid` just stored for `clientAddress`, until `expiresAt` (epoch ms): counted, and the
   * address's earliest others dropped when it has more than the limit pending. The new one is never dropped.
   */
  async add(interactions: Adapter, uid: string, clientAddress: string, expiresAt: number): Promise<void> {
    const group = clientAddressGroupKey(clientAddress);
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    await this.started.put(uid, [this.clock.now(), this.sequence], expiresAt, { group });
    const pending = await this.started.findByGroup(group);
    const excess = pending.length - this.limit;
    if (excess <= 0) return;
    const earliest = pending.filter((record) => record.id !== uid).sort(({ value: [at, sequence] }, { value: [otherAt, otherSequence] }) => at - otherAt || sequence - otherSequence);
    for (const { id } of earliest.slice(0, excess)) await interactions.destroy(id);
  }
}

/** When an interaction started: epoch ms, then the order its node started it in within that millisecond. */
type StartedAt = [number, number];

/** The Interaction model's storage, whose destroy also takes the interaction out of its address's count. */
class TrackedInteractions implements Adapter {
  constructor(
    private readonly interactions: Adapter,
    private readonly started: RecordStore<StartedAt>,
  ) {}

  upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    return this.interactions.upsert(id, payload, expiresIn);
  }
  find(id: string): Promise<AdapterPayload | undefined | void> {
    return this.interactions.find(id);
  }
  findByUid(uid: string): Promise<AdapterPayload | undefined | void> {
    return this.interactions.findByUid(uid);
  }
  findByUserCode(userCode: string): Promise<AdapterPayload | undefined | void> {
    return this.interactions.findByUserCode(userCode);
  }
  consume(id: string): Promise<void | undefined> {
    return this.interactions.consume(id);
  }
  async destroy(id: string): Promise<void | undefined> {
    await this.interactions.destroy(id);
    await this.started.delete(id);
  }
  revokeByGrantId(grantId: string): Promise<void | undefined> {
    return this.interactions.revokeByGrantId(grantId);
  }
}
