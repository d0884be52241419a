import { expect } from 'chai';
import { renderTable } from '../src/table.js';
import { judge, judgeMemory, median, summarise } from '../src/verdicts.js';
import { FLOOR_ROWS } from '../src/rows.js';
import { floor, load, MILLION_TGTS, row, threeRounds } from './results-fixture.js';

describe('bench verdicts', () => {
  const tgt = row('tgt').target;

  it('a row meets its target with the ratio and the p99 both within it', () => {
    expect(judge([load(15_000)], 0.75, 9, tgt)).to.deep.equal({ met: true, text: 'met' });
  });

  it('a ratio under the target or a p99 over 15 ms is **not met**, naming what missed', () => {
    expect(judge([load(10_000)], 0.5, 9, tgt)).to.deep.equal({ met: false, text: '**not met** (ratio 0.50 < 0.7)' });
    expect(judge([load(15_000)], 0.75, 16, tgt)).to.deep.equal({ met: false, text: '**not met** (p99 16 ms > 15 ms)' });
    expect(judge([load(10_000)], 0.5, 16, tgt).text).to.equal('**not met** (ratio 0.50 < 0.7; p99 16 ms > 15 ms)');
  });

  it('any error or non-2xx answer fails the row, whatever its ratio, and the baseline too', () => {
    expect(judge([load(30_000), load(30_000, { non2xx: 1 })], 2, 1, tgt)).to.deep.equal({ met: false, text: '**failed** (0 errors, 1 non-2xx)' });
    expect(judge([load(30_000, { errors: 3 })], 1)).to.deep.equal({ met: false, text: '**failed** (3 errors, 0 non-2xx)' });
    expect(judge([load(30_000)], 1)).to.deep.equal({ met: true, text: '' });
  });

  it('the argon2 row has no p99 target: its logins wait for the thread pool by design', () => {
    expect(judge([load(190, { p99: 400 })], 0.95, 400, row('argon2').target).met).to.equal(true);
  });

  it('takes each round against its own reference and reports the median of those ratios', () => {
    const summary = summarise(threeRounds(), ['memory']);
    const [baseline, tgtRow, argon2] = summary.rows;
    expect(baseline).to.include({ ratio: 1, okPerSecond: 20_000, verdict: baseline!.verdict });
    expect(tgtRow!.ratio).to.equal(0.75);
    expect(tgtRow!.verdict.met).to.equal(true);
    expect(argon2!.ratio).to.be.closeTo(0.95, 1e-9);
    expect(argon2!.okPerSecond).to.equal(200);
    expect(summary.allMet).to.equal(true);
  });

  it('one failed round or one target missed makes the whole run not met (what --check exits on)', () => {
    const results = threeRounds();
    const failing = { ...results, baseline: [load(20_000), load(20_000, { errors: 1 }), load(20_000)] };
    expect(summarise(failing, ['memory']).allMet).to.equal(false);
    const slow = { ...results, memory: [{ ...MILLION_TGTS, rssBytes: 1.3e9 }] };
    expect(summarise(slow, ['memory']).allMet).to.equal(false);
  });

  it("another store's rows are shown beside the memory store's without targets: slow is no miss, a failed answer still fails", () => {
    const { target: _target, ...untargeted } = row('tgt');
    const results = threeRounds();
    const redisRow = (rate: number, errors = 0) => ({ configuration: 'redis', row: untargeted, runs: [{ measured: load(rate, { errors, p99: 40 }), reference: 20_000 }] });
    const slow = summarise({ ...results, rows: [...results.rows, redisRow(4_000)] }, ['memory']);
    expect(slow.rows.at(-1)).to.deep.include({ configuration: 'redis', ratio: 0.2, verdict: { met: true, text: '' } });
    expect(slow.rows.at(-1)).to.not.have.property('target');
    expect(slow.allMet).to.equal(true);
    expect(renderTable(slow).split('\n').at(-1)).to.equal('| POST /v1/tickets (TGT create, cheap plain-password handler) | redis | 0.20 | 4000 | 2.0 | 40.0 | 100 | 0 | 0 |  |  |');
    const failed = summarise({ ...results, rows: [...results.rows, redisRow(4_000, 2)] }, ['memory']);
    expect(failed.rows.at(-1)?.verdict).to.deep.equal({ met: false, text: '**failed** (2 errors, 0 non-2xx)' });
    expect(failed.allMet).to.equal(false);
  });

  it('a floor is shown right after the baseline, taken against it, without a target; the judged row it bounds carries its ratio', () => {
    const { target: _target, ...untargeted } = row('tgt');
    const results = threeRounds();
    const redisTgt = { configuration: 'redis', row: untargeted, runs: [{ measured: load(4_000), reference: 20_000 }] };
    const summary = summarise({ ...results, floors: [floor('tgt', [16_400, 16_000, 15_600])], rows: [...results.rows, redisTgt] }, ['memory']);
    expect(summary.rows.map((candidate) => candidate.short)).to.deep.equal(['baseline', 'floor: TGT create', 'TGT create', 'argon2id TGT create', 'TGT create']);
    expect(summary.rows[1]).to.deep.include({ label: FLOOR_ROWS[0]!.label, ratio: 0.8, okPerSecond: 16_000, verdict: { met: true, text: '' } });
    expect(summary.rows[1]).to.not.have.property('target');
    expect(summary.rows[2]).to.include({ ratio: 0.75, floorRatio: 0.8 });
    expect(summary.rows[3]).to.not.have.property('floorRatio');
    expect(summary.rows[4]).to.not.have.property('floorRatio');
    expect(summary.allMet).to.equal(true);
  });

  it('a floor that got a failed answer fails, and the run with it', () => {
    const summary = summarise({ ...threeRounds(), floors: [floor('grant', [16_000], { non2xx: 4 })] }, ['memory']);
    expect(summary.rows[1]!.verdict).to.deep.equal({ met: false, text: '**failed** (0 errors, 4 non-2xx)' });
    expect(summary.allMet).to.equal(false);
  });

  it('the memory target is judged at 1,000,000 live TGTs only, and a figure not taken is not met', () => {
    expect(judgeMemory(MILLION_TGTS)).to.deep.equal({ met: true, text: 'met' });
    expect(judgeMemory({ ...MILLION_TGTS, rssBytes: 1.25e9 })).to.deep.equal({ met: false, text: '**not met** (1.25 GB ≥ 1.2 GB)' });
    expect(judgeMemory({ ...MILLION_TGTS, tickets: 20_000, liveTgts: 20_000 }).text).to.equal('**not judged** (the target is for 1,000,000 TGTs)');
    expect(judgeMemory({ ...MILLION_TGTS, liveTgts: 999_000 }).text).to.equal('**failed** (999000 live TGTs, not 1000000)');
    expect(judgeMemory(undefined)).to.deep.equal({ met: false, text: '**not measured**' });
    const withoutFigure = summarise({ ...threeRounds(), memory: [] }, ['memory']);
    expect(withoutFigure.allMet).to.equal(false);
  });

  it('median of an even count is the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).to.equal(2.5);
    expect(median([5, 1, 3])).to.equal(3);
  });
});
