import { hash } from 'node:crypto';
import type { RandomSource } from '../../ports/random-source.js';
import type { TicketKind } from './ticket.js';

/**
 * Random bytes per id: the long-lived bearer tickets (TGT, PGT) ≥ 32 (256 bits); the one-time ones
 * (ST, PT) and the PGT IOU ≥ 16 (128 bits, short ids for strict clients).
 */
const RANDOM_BYTES: Record<TicketKind | 'PGTIOU', number> = { TGT: 32, PGT: 32, ST: 16, PT: 16, PGTIOU: 16 };
const MAX_NODE_LENGTH = 16;
const SESSION_TAG_LENGTH = 4;
const GRANTED_TICKET_TAG = new RegExp(`^(?:ST|PT|PGT)-\\d+-([A-Za-z0-9-]{${SESSION_TAG_LENGTH}})`);

/**
 * Ticket ids `<KIND>-<n>-<random>-<node>` (docs/protocol.md §1): `n` a per-process counter, `random` CSPRNG
 * bytes in base64url with `_` turned into `-` (mod_auth_cas chokes on `_`), `node` the node name.
 * The random part alone guarantees ids never repeat across restarts and nodes. The random part of a
 * ticket granted under a TGT (ST, PGT, PT) starts with that TGT's session tag (see `sessionTag`).
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
  next(kind: Exclude<TicketKind, 'TGT'>, grantedUnder: string): string;
  next(kind: TicketKind, grantedUnder?: string): string {
    return this.id(kind, kind === 'TGT' ? '' : sessionTag(grantedUnder ?? ''));
  }

  /** A proxy-granting ticket IOU (`PGTIOU-…`): what a validation answer names in place of the PGT it delivered. */
  nextIou(): string {
    return this.id('PGTIOU', '');
  }

  private id(kind: TicketKind | 'PGTIOU', tag: string): string {
    this.counter += 1;
    const random = idAlphabet(Buffer.from(this.random.bytes(RANDOM_BYTES[kind])).toString('base64url'));
    return `${kind}-${this.counter}-${tag}${random}${this.suffix}`;
  }
}

/**
 * Four characters derived from a TGT id by a hash (so they tell nothing of the id), which every ticket
 * granted under the TGT (its STs, its PGTs and their PTs) carries right after its counter. A store can
 * keep a session's tickets together by them, and find where such a ticket lives from its id alone: the
 * Redis store puts a TGT and its tickets in one Redis Cluster hash slot, so logout and each ticket's
 * bookkeeping stay single-slot steps.
 */
export function sessionTag(tgtId: string): string {
  return idAlphabet(hash('sha256', tgtId, 'base64url').slice(0, SESSION_TAG_LENGTH));
}

/** The session tag an ST, PT or PGT id carries; undefined for an id not shaped like one of theirs. */
export function sessionTagOfGrantedTicket(id: string): string | undefined {
  return GRANTED_TICKET_TAG.exec(id)?.[1];
}

/** Keeps only characters allowed in ticket ids, and a short length so STs stay ≤ 64 characters. */
export function sanitizeNodeName(name: string): string {
  return name.replace(/[^A-Za-z0-9-]/g, '').slice(0, MAX_NODE_LENGTH);
}

function idAlphabet(base64url: string): string {
  return base64url.replaceAll('_', '-');
}
