import { updateRecord, type Clock, type JsonValue, type RecordStore, type RecordStores } from '@tessera/core';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/** What a model's record holds: the provider's payload, as JSON. */
type Payload = { readonly [key: string]: JsonValue };

/**
 * What answers a consume that lost: the record was consumed already, or is gone, so another redemption
 * of the code or refresh token won (two requests may read it unconsumed at once). `grantId` is the
 * grant of the record found consumed (a code's and a refresh token's always name one), undefined when
 * none was found. Its rejection is the consume's:
 * the request that lost gets no tokens.
 */
export type LostRedemption = (grantId: string | undefined) => Promise<never>;

/** A record that names no lifetime (a session's) lives this long at most. */
const DEFAULT_LIFETIME_SECONDS = 14 * 24 * 3600;

/**
 * node-oidc-provider's storage (its Adapter interface) on tessera's record stores: one namespace per
 * model (`oidc.session`, `oidc.authorizationcode`, ...), so every storage (memory, Redis, MongoDB)
 * serves it and a code issued by one node is redeemed at another. A model's records are grouped by
 * their grant, which `revokeByGrantId` deletes at once; sessions are found by their uid through a
 * second namespace. A code or refresh token is consumed once: a consume that finds it consumed
 * already is handed to `lostRedemption`.
 */
export class RecordAdapter implements Adapter {
  private readonly records: RecordStore<Payload>;
  private readonly uids: RecordStore<string> | undefined;

  constructor(
    model: string,
    stores: RecordStores,
    private readonly clock: Clock,
    private readonly lostRedemption: LostRedemption,
  ) {
    this.records = stores.namespace<Payload>(`oidc.${model.toLowerCase()}`);
    this.uids = model === 'Session' ? stores.namespace<string>('oidc.session-uid') : undefined;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
    const expiresAt = this.clock.now() + (expiresIn ?? DEFAULT_LIFETIME_SECONDS) * 1000;
    // Every record store keeps a value as JSON text, written from the payload as it is (what JSON cannot
    // hold, an undefined field, is left out there): no copy of it here.
    await this.records.put(id, payload as unknown as Payload, expiresAt, typeof payload.grantId === 'string' && payload.grantId !== '' ? { group: payload.grantId } : {});
    if (this.uids && typeof payload.uid === 'string') await this.uids.put(payload.uid, id, expiresAt);
  }

  // Not async: the store's promise as it is, without another one around it (read several times per request).
  find(id: string): Promise<AdapterPayload | undefined> {
    return this.records.get(id);
  }

  // No async frame: a session is found by its uid on every request of a token bound to it.
  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    if (this.uids === undefined) return Promise.resolve(undefined);
    return this.uids.get(uid).then((id) => (id === undefined ? undefined : this.records.get(id)));
  }

  /** The device flow is off: no user codes. */
  findByUserCode(): Promise<AdapterPayload | undefined> {
    return Promise.resolve(undefined);
  }

  async consume(id: string): Promise<void> {
    const consumed = Math.floor(this.clock.now() / 1000);
    // The compare-and-set is where two redemptions meet: the one whose write lands wins; the other reads
    // the record consumed (or gone) on its next attempt, and takes its grant from it (the record's group).
    let lostGrantId: string | undefined;
    const marked = await updateRecord(this.records, id, (current) => {
      if (current === undefined || current.value['consumed'] !== undefined) {
        lostGrantId = current?.group;
        return undefined;
      }
      // The value read is this attempt's own copy: marked in place, not copied once more (a code's
      // payload is copied on every read and write already).
      const value: Record<string, JsonValue> = current.value;
      value['consumed'] = consumed;
      return { value, expiresAt: current.expiresAt, ...(current.group !== undefined && { group: current.group }) };
    });
    if (marked === undefined) await this.lostRedemption(lostGrantId);
  }

  async destroy(id: string): Promise<void> {
    const payload = this.uids ? await this.records.get(id) : undefined;
    await this.records.delete(id);
    if (this.uids && typeof payload?.['uid'] === 'string') await this.uids.delete(payload['uid']);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.records.deleteGroup(grantId);
  }
}
