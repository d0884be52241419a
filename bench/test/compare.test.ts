import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutMain, compareOptions, quartiles, sliceOrder } from '../src/compare-options.js';
import { cpuMicros, mainThreadCpuMicros } from '../src/processes/proc.js';

describe('pnpm bench:compare', () => {
  describe('options', () => {
    it('measures the code exchange in 12 slices of 5000 requests at 50 connections by default, userinfo in slices of 15000', () => {
      expect(compareOptions([], {})).to.deep.equal({ row: 'code', slices: 12, amount: 5000, connections: 50, poolSize: 4 });
      expect(compareOptions(['--', '--row', 'userinfo', '--slices', '8'], { UV_THREADPOOL_SIZE: '2' })).to.deep.equal({ row: 'userinfo', slices: 8, amount: 15_000, connections: 50, poolSize: 2 });
    });

    it('refuses another row, a bad number, and fewer requests a slice than connections, naming the flag', () => {
      expect(() => compareOptions(['--row', 'tgt'], {})).to.throw('--row: expected code or userinfo, got "tgt"');
      expect(() => compareOptions(['--slices', '0'], {})).to.throw('--slices: expected a whole number ≥ 1, got "0"');
      expect(() => compareOptions(['--amount', '20'], {})).to.throw('--amount: expected at least as many requests as connections (50), got 20');
      expect(compareOptions(['--amount', '20', '--connections', '10'], {})).to.include({ amount: 20, connections: 10 });
    });

    it('takes --other only as a built checkout, whose CLI it starts', () => {
      const checkout = mkdtempSync(join(tmpdir(), 'tessera-compare-'));
      try {
        expect(() => compareOptions(['--other', checkout], {})).to.throw(/--other: .*packages\/cli-server\/dist\/main\.js does not exist; build that checkout first/);
        mkdirSync(join(checkout, 'packages', 'cli-server', 'dist'), { recursive: true });
        writeFileSync(checkoutMain(checkout), '');
        expect(compareOptions(['--other', checkout], {}).other).to.equal(checkout);
      } finally {
        rmSync(checkout, { recursive: true, force: true });
      }
    });
  });

  it('reverses the servers every other round, so drift within a round favours none', () => {
    expect([0, 1, 2, 3].map((round) => sliceOrder(3, round))).to.deep.equal([
      [0, 1, 2],
      [2, 1, 0],
      [0, 1, 2],
      [2, 1, 0],
    ]);
  });

  it('summarises slices by nearest-rank quartiles', () => {
    expect(quartiles([4, 1, 3, 2, 5])).to.deep.equal({ q1: 2, median: 3, q3: 4 });
    expect(quartiles([7])).to.deep.equal({ q1: 7, median: 7, q3: 7 });
    expect(() => quartiles([])).to.throw('quartiles of no values');
  });

  it("reads a process's main thread CPU apart from the whole process's", () => {
    const main = mainThreadCpuMicros(process.pid);
    expect(main).to.be.above(0);
    expect(main).to.be.at.most(cpuMicros(process.pid));
  });
});
