import { sessionTag, type Authentication, type Clock, type LiveTgtCount, type ServiceTicket, type Ticket, type TicketGrantingTicket, type TicketStore } from '@tessera/core';
import type { RedisKeys } from './keys.js';
import { runScript, type RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/**
 * How long Redis keeps a ticket after the clock says it died. Reads decide by the clock alone; the
 * margin keeps a node whose clock runs a little behind the saving node's from losing a live ticket early.
 */
export const EXPIRY_MARGIN_MS = 5000;

/** What a TGT's `data` field holds: the fields that never change. */
interface TgtData {
  readonly authentication: Authentication;
  readonly createdAt: number;
}

/** What an ST's `data` field holds: all of it but the id and expiresAt, which have their own places. */
type StData = Omit<ServiceTicket, 'kind' | 'id' | 'expiresAt'>;

/**
 * Tickets in Redis, shared by every node. Each ticket is a hash: `kind`, `expiresAt`, `data` (JSON of
 * what never changes) and, for a TGT, `hardExpiresAt` and `servicesGranted`. Every step that reads
 * and writes is one Lua script (see scripts.ts), so concurrent nodes never both consume an ST or lose
 * a touch; each read checks `expiresAt` against the clock, native TTLs only collect garbage.
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
      const data: TgtData = { authentication: ticket.authentication, createdAt: ticket.createdAt };
      await guarded(() => runScript(this.client, 'tesseraSaveTgt', [key], [ticket.expiresAt, ticket.hardExpiresAt, ticket.servicesGranted, JSON.stringify(data), ttl]));
      this.countTgt(ticket.id, ticket.expiresAt, '');
      return;
    }
    const { kind: _kind, id, expiresAt, ...data } = ticket;
    if (!key.includes(`{${sessionTag(ticket.tgtId)}}`)) throw new Error(`ST ${id.slice(0, 8)}… does not carry the session tag of its TGT`);
    await guarded(() => runScript(this.client, 'tesseraSaveSt', [key, this.keys.descendants(ticket.tgtId)], [id, expiresAt, JSON.stringify(data satisfies StData), ttl, this.clock.now()]));
  }

  async get(id: string): Promise<Ticket | undefined> {
    const key = this.keys.ticket(id);
    if (key === undefined) return undefined;
    const fields = await guarded(() => this.client.hgetall(key));
    if (fields['data'] === undefined || Number(fields['expiresAt']) <= this.clock.now()) return undefined;
    if (fields['kind'] === 'ST') return serviceTicket(id, Number(fields['expiresAt']), fields['data']);
    return grantingTicket(id, fields['data'], { expiresAt: fields['expiresAt'], hardExpiresAt: fields['hardExpiresAt'], servicesGranted: fields['servicesGranted'] });
  }

  async consume(id: string): Promise<ServiceTicket | undefined> {
    const key = this.keys.ticket(id);
    if (key === undefined || !id.startsWith('ST-')) return undefined;
    const consumed = (await guarded(() => runScript(this.client, 'tesseraConsume', [key], [this.clock.now()]))) as [string, string] | null;
    return consumed === null ? undefined : serviceTicket(id, Number(consumed[1]), consumed[0]);
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

  async remove(id: string): Promise<void> {
    const key = this.keys.ticket(id);
    if (key === undefined) return;
    await guarded(() => this.client.del(key));
    if (id.startsWith('TGT-')) this.client.zrem(this.keys.liveTgts, id).catch(() => undefined);
  }

  async removeDescendants(tgtId: string): Promise<number> {
    const removed = await guarded(() => runScript(this.client, 'tesseraRemoveDescendants', [this.keys.descendants(tgtId)], [this.clock.now(), this.keys.ticketsOf(sessionTag(tgtId))]));
    return Number(removed);
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

  private ticketKey(id: string): string {
    const key = this.keys.ticket(id);
    if (key === undefined) throw new Error(`Ticket id ${id.slice(0, 8)}… has neither a TGT's nor an ST's shape`);
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
  const { authentication, createdAt } = JSON.parse(data) as TgtData;
  return {
    kind: 'TGT',
    id,
    authentication,
    createdAt,
    hardExpiresAt: Number(fields.hardExpiresAt),
    expiresAt: Number(fields.expiresAt),
    servicesGranted: Number(fields.servicesGranted),
  };
}

function serviceTicket(id: string, expiresAt: number, data: string): ServiceTicket {
  const { tgtId, service, fromNewLogin, authenticatedAt, createdAt } = JSON.parse(data) as StData;
  return { kind: 'ST', id, tgtId, service, fromNewLogin, authenticatedAt, createdAt, expiresAt };
}
