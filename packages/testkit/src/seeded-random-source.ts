import { createHash } from 'node:crypto';
import type { RandomSource } from '@tessera/core';

/**
 * Deterministic bytes: a SHA-256 stream over seed and block counter. Two sources with the same seed
 * yield the same bytes in the same order; different seeds differ. For tests only, never for real ids.
 */
export class SeededRandomSource implements RandomSource {
  private block = 0;
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly seed: string = 'tessera-test') {}

  bytes(size: number): Uint8Array {
    const chunks: Buffer[] = [this.pending];
    let available = this.pending.length;
    while (available < size) {
      const next = createHash('sha256').update(`${this.seed}\u0000${this.block}`).digest();
      this.block += 1;
      chunks.push(next);
      available += next.length;
    }
    const all = Buffer.concat(chunks, available);
    this.pending = all.subarray(size);
    return new Uint8Array(all.subarray(0, size));
  }
}
