import {
  sessionTag,
  StoreUnavailableError,
  type Authentication,
  type Clock,
  type DescendantTicket,
  type LiveTgtCount,
  type Ticket,
  type TicketGrantingTicket,
  type TicketStore,
  type ValidatableTicket,
} from '@tessera/core';
import type { RedisKeys } from './keys.js';
import { runScript, type RedisClient } from './scripts.js';
import { storedNumber, ticketData } from './ticket-data.js';
import { guarded } from './unavailable.js';

/**
 * How long Redis keeps a ticket after the clock says it died. Reads decide by the clock alone; the
 * margin keeps a node whose clock runs a little behind the saving node's from losing a live ticket early.
 */
export const EXPIRY_MARGIN_MS = 5000;

/** How many times removeDescendants reads the index again for tickets granted while it ran, before it gives up (503). */
const REMOVAL_ROUNDS = 5;

/** What a TGT's `data` field holds: the fields that never change (read back checked: ticket-data.ts). */
interface TgtData {
  readonly authentication: Authentication;
  readonly createdAt: number;
  readonly hardTimeout?: true;
}

/** What the `data` field of a ticket granted under a TGT holds: all of it but kind, id and expiresAt, which have their own places. */
type GrantedData<T extends DescendantTicket = DescendantTicket> = T extends DescendantTicket ? Omit<T, 'kind' | 'id' | 'expiresAt' | 'usesLeft'> : never;

/**
 * Tickets in Redis, shared by every node. Each ticket is a hash: `kind`, `expiresAt`, `data` (JSON of
 * what never changes) and, for a TGT, `hardExpiresAt` and `servicesGranted`. Every step that reads
 * and writes is one Lua script (see scripts.ts), so concurrent nodes never both consume an ST or PT or
 * lose a touch; each read checks `expiresAt` against the clock, native TTLs only collect garbage.
 */
export class RedisTicketStore implements TicketStore, LiveTgtCount {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
  ) {}

  async save(ticket: Ticket): Promise<void> {
    const key = this.ticketKey(ticket.id);
    const ttl = this.ttlUntil(ticket.expiresAt);
    if (ticket.kind === 'TGT') {
      const data: TgtData = { authentication: ticket.authentication, createdAt: ticket.createdAt, ...(ticket.hardTimeout && { hardTimeout: true }) };
      await guarded(() => runScript(this.client, 'tesseraSaveTgt', [key], [ticket.expiresAt, ticket.hardExpiresAt, ticket.servicesGranted, JSON.stringify(data), ttl]));
      this.countTgt(ticket.id, ticket.expiresAt, '');
      return;
    }
    // The uses left change with each validation: a field of their own, beside the data that never changes.
    const { kind, id, expiresAt, usesLeft, ...data } = ticket.kind === 'PGT' ? { ...ticket, usesLeft: undefined } : ticket;
    if (!key.includes(`{${sessionTag(ticket.tgtId)}}`)) throw new Error(`${kind} ${id.slice(0, 8)}… does not carry the session tag of its TGT`);
    // Two scripts of one key each, sent together: one round trip, and each served while its slot is
    // being moved (see scripts.ts). Should either fail, the save fails and the id is never handed
    // out; a ticket without its index entry is one nobody holds.
    await guarded(() =>
      Promise.all([
        runScript(this.client, 'tesseraIndexGranted', [this.keys.descendants(ticket.tgtId)], [id, expiresAt, this.clock.now(), ttl]),
        runScript(this.client, 'tesseraSaveGranted', [key], [kind, expiresAt, JSON.stringify(data satisfies GrantedData), ttl, usesLeft ?? '']),
      ]),
    );
  }

  async get(id: string): Promise<Ticket | undefined> {
    const key = this.keys.ticket(id);
    if (key === undefined) return undefined;
    const fields = await guarded(() => this.client.hgetall(key));
    if (fields['data'] === undefined) return undefined;
    const expiresAt = storedNumber(id, 'expiresAt', fields['expiresAt']);
    if (expiresAt <= this.clock.now()) return undefined;
    if (fields['kind'] === 'TGT') {
      return grantingTicket(id, fields['data'], { expiresAt: fields['expiresAt'], hardExpiresAt: fields['hardExpiresAt'], servicesGranted: fields['servicesGranted'] });
    }
    return grantedTicket(fields['kind'], id, expiresAt, fields['data'], fields['usesLeft']);
  }

  async consume(id: string): Promise<ValidatableTicket | undefined> {
    const key = this.keys.ticket(id);
    if (key === undefined || !(id.startsWith('ST-') || id.startsWith('PT-'))) return undefined;
    const consumed = (await guarded(() => runScript(this.client, 'tesseraConsume', [key], [this.clock.now()]))) as [string, string, string, string] | null;
    if (consumed === null) return undefined;
    const [data, expiresAt, kind, usesLeft] = consumed;
    return grantedTicket(kind, id, storedNumber(id, 'expiresAt', expiresAt), data, usesLeft === '' ? undefined : usesLeft) as ValidatableTicket;
  }

  async touch(tgtId: string, expiresAt: number): Promise<TicketGrantingTicket | undefined> {
    const key = this.keys.ticket(tgtId);
    if (key === undefined || !tgtId.startsWith('TGT-')) return undefined;
    const touched = (await guarded(() => runScript(this.client, 'tesseraTouch', [key], [this.clock.now(), expiresAt, this.ttlUntil(expiresAt)]))) as
      | [number, string, string]
      | null;
    if (touched === null) return undefined;
    const [servicesGranted, data, hardExpiresAt] = touched;
    this.countTgt(tgtId, expiresAt, 'XX');
    return grantingTicket(tgtId, data, { expiresAt: String(expiresAt), hardExpiresAt, servicesGranted: String(servicesGranted) });
  }

  async updateAuthentication(tgt: TicketGrantingTicket, authentication: Authentication): Promise<TicketGrantingTicket | undefined> {
    const key = this.keys.ticket(tgt.id);
    if (key === undefined || !tgt.id.startsWith('TGT-')) return undefined;
    const data = JSON.stringify({ authentication, createdAt: tgt.createdAt, ...(tgt.hardTimeout && { hardTimeout: true }) } satisfies TgtData);
    const updated = (await guarded(() => runScript(this.client, 'tesseraUpdateTgtData', [key], [this.clock.now(), data]))) as [string, string, string] | null;
    if (updated === null) return undefined;
    const [expiresAt, hardExpiresAt, servicesGranted] = updated;
    return grantingTicket(tgt.id, data, { expiresAt, hardExpiresAt, servicesGranted });
  }

  async remove(id: string): Promise<void> {
    const key = this.keys.ticket(id);
    if (key === undefined) return;
    await guarded(() => this.client.del(key));
    if (id.startsWith('TGT-')) this.client.zrem(this.keys.liveTgts, id).catch(() => undefined);
  }

  /**
   * Reads the index, deletes each ticket in it by its own command, then takes those out of the index,
   * in rounds until none is left: three round trips for a TGT that granted tickets, one for another.
   * One command per key is what a slot being moved serves (see scripts.ts); a script over the index
   * and its tickets would be refused until the move ends. An index entry goes only after its ticket,
   * so a call that fails halfway leaves every remaining ticket indexed and a retry finishes it. A
   * ticket indexed meanwhile (granted as the TGT was removed) is found by the next round.
   */
  async removeDescendants(tgtId: string): Promise<number> {
    const index = this.keys.descendants(tgtId);
    const now = this.clock.now();
    let live = 0;
    let entries = await guarded(() => this.client.zrange(index, '0', '-1', 'WITHSCORES'));
    for (let round = 1; entries.length > 0; round++) {
      if (round > REMOVAL_ROUNDS) throw new StoreUnavailableError(`Tickets kept being granted under TGT ${tgtId.slice(0, 8)}… while it was removed`);
      const ids = entries.filter((_, i) => i % 2 === 0);
      const deleted = await guarded(() => Promise.all(ids.map((id) => this.deleteTicket(id))));
      live += deleted.filter((gone, i) => gone && Number(entries[2 * i + 1]) > now).length;
      entries = (await guarded(() => runScript(this.client, 'tesseraForgetGranted', [index], ids))) as string[];
    }
    return live;
  }

  /**
   * A sorted set of TGT ids scored by expiresAt, written with each save, slide and removal, pruned of
   * the TGTs dead by the clock at each login and each count. Exact but for the moment between a TGT's
   * own write and the gauge's, which no request waits for. One key for the whole cluster: written by
   * every login and ST grant, read by every scrape of every node.
   */
  async liveTgts(): Promise<number> {
    const now = this.clock.now();
    const replies = await guarded(() => this.client.multi().zremrangebyscore(this.keys.liveTgts, '-inf', now).zcard(this.keys.liveTgts).exec());
    return Number(replies?.[1]?.[1] ?? 0);
  }

  /** True when this call deleted it. */
  private async deleteTicket(id: string): Promise<boolean> {
    const key = this.keys.ticket(id);
    return key !== undefined && (await this.client.del(key)) === 1;
  }

  private ticketKey(id: string): string {
    const key = this.keys.ticket(id);
    if (key === undefined) throw new Error(`Ticket id ${id.slice(0, 8)}… has neither a TGT's nor a granted ticket's shape`);
    return key;
  }

  private ttlUntil(expiresAt: number): number {
    return Math.max(1, expiresAt - this.clock.now() + EXPIRY_MARGIN_MS);
  }

  /** The gauge is bookkeeping: a request never waits for it, and a lost write only skews a count. */
  private countTgt(id: string, expiresAt: number, mode: 'XX' | ''): void {
    runScript(this.client, 'tesseraCountTgt', [this.keys.liveTgts], [id, expiresAt, this.clock.now(), this.ttlUntil(expiresAt), mode]).catch(() => undefined);
  }
}

function grantingTicket(id: string, data: string, fields: { expiresAt?: string | undefined; hardExpiresAt?: string | undefined; servicesGranted?: string | undefined }): TicketGrantingTicket {
  const { authentication, createdAt, hardTimeout } = ticketData('TGT', id, data);
  return {
    kind: 'TGT',
    id,
    // Checked field by field; a credential type is whatever string the handler that accepted it gave.
    authentication: authentication,
    createdAt,
    hardExpiresAt: storedNumber(id, 'hardExpiresAt', fields.hardExpiresAt),
    expiresAt: storedNumber(id, 'expiresAt', fields.expiresAt),
    servicesGranted: storedNumber(id, 'servicesGranted', fields.servicesGranted),
    ...(hardTimeout && { hardTimeout }),
  };
}

/** An ST, PGT or PT from its hash, field by field (checked: ticket-data.ts) so nothing else stored there reaches core. */
function grantedTicket(kind: string | undefined, id: string, expiresAt: number, data: string, usesLeft?: string): DescendantTicket {
  const uses = usesLeft === undefined ? {} : { usesLeft: storedNumber(id, 'usesLeft', usesLeft) };
  switch (kind) {
    case 'ST':
      return { kind, id, ...ticketData(kind, id, data), expiresAt, ...uses };
    case 'PGT':
      return { kind, id, ...ticketData(kind, id, data), expiresAt };
    case 'PT':
      return { kind, id, ...ticketData(kind, id, data), expiresAt, ...uses };
    default:
      throw new Error(`Ticket ${id.slice(0, 8)}… is stored with an unknown kind`);
  }
}
