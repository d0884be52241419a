import { randomBytes } from 'node:crypto';

/** Source of random bytes for ticket ids. Production uses the CSPRNG; tests use a seeded source. */
export interface RandomSource {
  bytes(size: number): Uint8Array;
}

/** The operating system's CSPRNG, one native call per draw. */
const systemRandomSource: RandomSource = { bytes: (size) => randomBytes(size) };

const POOL_BYTES = 4096;

/**
 * The bytes of another source drawn `poolBytes` at a time and handed out in order, each byte once,
 * as copies: one native call per ~128 TGT ids instead of one per id (randomBytes(32) per request
 * showed in the benchmark's profile). Every id still gets as many fresh bytes as it asks for. A
 * draw larger than the pool goes to the source whole.
 */
export class PooledRandomSource implements RandomSource {
  private pool: Uint8Array = new Uint8Array(0);
  private offset = 0;

  constructor(
    private readonly source: RandomSource,
    private readonly poolBytes = POOL_BYTES,
  ) {}

  bytes(size: number): Uint8Array {
    if (size > this.poolBytes) return this.source.bytes(size);
    if (this.offset + size > this.pool.length) {
      this.pool = this.source.bytes(this.poolBytes);
      this.offset = 0;
    }
    // A copy (Buffer's own slice would be a view of the pool).
    const bytes = Buffer.from(this.pool.subarray(this.offset, this.offset + size));
    this.offset += size;
    return bytes;
  }
}

/** What production draws ticket ids from: the system's CSPRNG through a pool. */
export const cryptoRandomSource: RandomSource = new PooledRandomSource(systemRandomSource);
