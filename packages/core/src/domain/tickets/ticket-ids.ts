import type { RandomSource } from '../../ports/random-source.js';
import type { TicketKind } from './ticket.js';

/** Random bytes per id: TGT ≥ 32 (256 bits), ST ≥ 16 (128 bits, short ids for strict clients). */
const RANDOM_BYTES: Record<TicketKind, number> = { TGT: 32, ST: 16 };
const MAX_NODE_LENGTH = 16;

/**
 * Ticket ids `<KIND>-<n>-<random>-<node>` (docs/protocol.md §1): `n` a per-process counter, `random` CSPRNG
 * bytes in base64url with `_` turned into `-` (mod_auth_cas chokes on `_`), `node` the node name.
 * The random part alone guarantees ids never repeat across restarts and nodes.
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

  next(kind: TicketKind): string {
    this.counter += 1;
    const random = Buffer.from(this.random.bytes(RANDOM_BYTES[kind])).toString('base64url').replaceAll('_', '-');
    return `${kind}-${this.counter}-${random}${this.suffix}`;
  }
}

/** Keeps only characters allowed in ticket ids, and a short length so STs stay ≤ 64 characters. */
export function sanitizeNodeName(name: string): string {
  return name.replace(/[^A-Za-z0-9-]/g, '').slice(0, MAX_NODE_LENGTH);
}
