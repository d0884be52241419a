import { randomBytes, randomFillSync } from 'node:crypto';

/** Source of random bytes for ticket ids. Production uses the CSPRNG; tests use a seeded source. */
export interface RandomSource {
  bytes(size: number): Uint8Array;
}

const POOL_BYTES = 4096;

/**
 * CSPRNG bytes handed out from a pool refilled 4 KiB at a time: one native call per ~128 TGT ids
 * instead of one per id (randomBytes(32) per request showed in the benchmark's profile). Every
 * byte is handed out once, as a copy.
 */
function pooledCryptoRandom(): RandomSource {
  const pool = Buffer.allocUnsafe(POOL_BYTES);
  let offset = POOL_BYTES;
  return {
    bytes(size) {
      if (size > POOL_BYTES) return randomBytes(size);
      if (offset + size > POOL_BYTES) {
        randomFillSync(pool);
        offset = 0;
      }
      const bytes = Buffer.from(pool.subarray(offset, offset + size));
      offset += size;
      return bytes;
    },
  };
}

export const cryptoRandomSource: RandomSource = pooledCryptoRandom();
