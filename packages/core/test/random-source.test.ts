import { expect } from 'chai';
import { cryptoRandomSource } from '@tessera/core';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('cryptoRandomSource (pooled CSPRNG bytes)', () => {
  it('returns exactly the bytes asked for, also beyond the pool size', () => {
    for (const size of [1, 16, 32, 64, 4096, 5000]) expect(cryptoRandomSource.bytes(size)).to.have.length(size);
  });

  it('never hands out the same bytes twice, across many pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) seen.add(hex(cryptoRandomSource.bytes(32)));
    expect(seen.size).to.equal(2000);
  });

  it('hands out copies: bytes already returned do not change when the pool is refilled', () => {
    const first = cryptoRandomSource.bytes(32);
    const before = hex(first);
    for (let i = 0; i < 300; i += 1) cryptoRandomSource.bytes(32);
    expect(hex(first)).to.equal(before);
  });
});
