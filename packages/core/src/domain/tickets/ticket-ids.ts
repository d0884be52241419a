import { hash } from 'node:crypto';
import type { RandomSource } from '../../ports/random-source.js';
import type { TicketKind } from './ticket.js';

/** Random bytes per id: TGT ≥ 32 (256 bits), ST ≥ 16 (128 bits, short ids for strict clients). */
const RANDOM_BYTES: Record<TicketKind, number> = { TGT: 32, ST: 16 };
const MAX_NODE_LENGTH = 16;
const SESSION_TAG_LENGTH = 4;
const SERVICE_TICKET_TAG = new RegExp(`^ST-\\d+-([A-Za-z0-9-]{${SESSION_TAG_LENGTH}})`);

/**
 * Ticket ids `<KIND>-<n>-<random>-<node>` (docs/protocol.md §1): `n` a per-process counter, `random` CSPRNG
 * bytes in base64url with `_` turned into `-` (mod_auth_cas chokes on `_`), `node` the node name.
 * The random part alone guarantees ids never repeat across restarts and nodes. An ST's random part
 * starts with the session tag of the TGT that granted it (see `sessionTag`).
 */
export class TicketIdGenerator {
  private counter = 0;
  private readonly suffix: string;

  constructor(
    private readonly random: RandomSource,
    nodeName: string,
  ) {
    const node = sanitizeNodeName(nodeName);
    this.suffix = node ? `-${node}` : '';
  }

  next(kind: 'TGT'): string;
  next(kind: 'ST', grantedBy: string): string;
  next(kind: TicketKind, grantedBy?: string): string {
    this.counter += 1;
    const random = idAlphabet(Buffer.from(this.random.bytes(RANDOM_BYTES[kind])).toString('base64url'));
    const tag = kind === 'ST' ? sessionTag(grantedBy ?? '') : '';
    return `${kind}-${this.counter}-${tag}${random}${this.suffix}`;
  }
}

/**
 * Four characters derived from a TGT id by a hash (so they tell nothing of the id), which every ST
 * the TGT grants carries right after its counter. A store can keep a session's tickets together
 * by them, and find where an ST lives from its id alone: the Redis store puts a TGT and its STs in
 * one Redis Cluster hash slot, so logout and each ST's bookkeeping stay single-slot steps.
 */
export function sessionTag(tgtId: string): string {
  return idAlphabet(hash('sha256', tgtId, 'base64url').slice(0, SESSION_TAG_LENGTH));
}

/** The session tag an ST id carries; undefined for an id not shaped like an ST's. */
export function sessionTagOfServiceTicket(stId: string): string | undefined {
  return SERVICE_TICKET_TAG.exec(stId)?.[1];
}

/** Keeps only characters allowed in ticket ids, and a short length so STs stay ≤ 64 characters. */
export function sanitizeNodeName(name: string): string {
  return name.replace(/[^A-Za-z0-9-]/g, '').slice(0, MAX_NODE_LENGTH);
}

function idAlphabet(base64url: string): string {
  return base64url.replaceAll('_', '-');
}
