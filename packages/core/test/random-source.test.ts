import { expect } from 'chai';
import { cryptoRandomSource, PooledRandomSource, TicketIdGenerator, type RandomSource } from '@tessera/core';
import { SeededRandomSource } from '@tessera/testkit';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** A seeded source that remembers every draw asked of it. */
function recording(): { source: RandomSource; draws: number[]; stream: () => Buffer } {
  const seeded = new SeededRandomSource('pool');
  const draws: number[] = [];
  const handedOut: Uint8Array[] = [];
  const source = {
    bytes(size: number) {
      draws.push(size);
      const bytes = seeded.bytes(size);
      handedOut.push(bytes);
      return bytes;
    },
  };
  return { source, draws, stream: () => Buffer.concat(handedOut) };
}

describe('random bytes for ticket ids', () => {
  describe('PooledRandomSource (through the RandomSource port)', () => {
    it('draws 4 KiB at a time: a thousand TGT ids cost 8 draws of the source, not a thousand', () => {
      const { source, draws } = recording();
      const ids = new TicketIdGenerator(new PooledRandomSource(source), 'n1');
      for (let i = 0; i < 1000; i += 1) ids.next('TGT');
      expect(draws).to.deep.equal(Array.from({ length: 8 }, () => 4096));
    });

    it("hands out the source's bytes in order, each once: every id gets as many fresh bytes as without the pool", () => {
      const { source, stream } = recording();
      const pooled = new PooledRandomSource(source, 64);
      const handedOut = [32, 16, 16, 32, 32].map((size) => pooled.bytes(size));
      expect(hex(Buffer.concat(handedOut))).to.equal(hex(stream()));
      const direct = new SeededRandomSource('pool');
      const unpooled = [32, 16, 16, 32, 32].map((size) => direct.bytes(size));
      expect(handedOut.map(hex)).to.deep.equal(unpooled.map(hex));
    });

    it('skips the tail of a pool too short for a draw, and gives a draw larger than the pool to the source whole', () => {
      const { source, draws, stream } = recording();
      const pooled = new PooledRandomSource(source, 40);
      const first = pooled.bytes(32);
      const second = pooled.bytes(16);
      expect(draws).to.deep.equal([40, 40]);
      expect(hex(second)).to.equal(hex(stream().subarray(40, 56)));
      expect(hex(first)).to.equal(hex(stream().subarray(0, 32)));
      expect(pooled.bytes(100)).to.have.length(100);
      expect(draws).to.deep.equal([40, 40, 100]);
    });

    it('hands out copies: bytes already returned do not change when the pool is refilled', () => {
      const reused = new Uint8Array(64);
      let fill = 0;
      const pooled = new PooledRandomSource({ bytes: () => reused.fill(++fill) }, 64);
      const first = pooled.bytes(32);
      pooled.bytes(32);
      pooled.bytes(32);
      expect([...first]).to.deep.equal(Array.from({ length: 32 }, () => 1));
    });
  });

  describe('cryptoRandomSource (the pooled CSPRNG)', () => {
    it('returns exactly the bytes asked for, also beyond the pool size', () => {
      for (const size of [1, 16, 32, 64, 4096, 5000]) expect(cryptoRandomSource.bytes(size)).to.have.length(size);
    });

    it('never hands out the same bytes twice, across many pool refills', () => {
      const seen = new Set<string>();
      for (let i = 0; i < 2000; i += 1) seen.add(hex(cryptoRandomSource.bytes(32)));
      expect(seen.size).to.equal(2000);
    });
  });
});
