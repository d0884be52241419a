import { randomBytes } from 'node:crypto';

/** Source of random bytes for ticket ids. Production uses the CSPRNG; tests use a seeded source. */
export interface RandomSource {
  bytes(size: number): Uint8Array;
}

export const cryptoRandomSource: RandomSource = { bytes: (size) => randomBytes(size) };
