import { expect } from 'chai';
import { renderTable } from '../src/table.js';
import { judge, judgeMemory, median, summarise } from '../src/verdicts.js';
import { FLOOR_ROWS, ROWS } from '../src/rows.js';
import { floor, libraryReference, load, MILLION_TGTS, rounds, row, threeRounds, withRow } from './results-fixture.js';

describe('bench verdicts', () => {
  const tgt = row('tgt').target!;

  it('states the targets: TGT create, ST grant and validation against their floors, JWT and X.509 against TGT create, argon2id against the raw verify rate, the OIDC rows against node-oidc-provider alone; the SAML row none (reported with its CPU per login)', () => {
    const p99Ms = 15;
    expect(Object.fromEntries(ROWS.map((candidate) => [candidate.name, candidate.target]))).to.deep.equal({
      tgt: { against: 'floor', ratio: 0.8, p99Ms },
      grant: { against: 'floor', ratio: 0.85, p99Ms },
      validate: { against: 'floor', ratio: 0.8, p99Ms },
      jwt: { against: { row: 'tgt' }, ratio: 0.5, p99Ms },
      x509: { against: { row: 'tgt' }, ratio: 0.9, p99Ms },
      argon2: { against: 'raw argon2', ratio: 0.9 },
      code: { against: 'library', ratio: 0.85 },
      userinfo: { against: 'library', ratio: 0.85 },
      saml: undefined,
    });
  });

  it('a row meets its target when its ratio to its reference is at least the target and its p99 at most 15 ms', () => {
    expect(judge([load(15_000)], { target: tgt, ratio: 0.8, p99: 15 })).to.deep.equal({ met: true, text: 'met' });
  });

  it('a ratio under the target or a p99 over 15 ms is **not met**, naming what missed', () => {
    expect(judge([load(10_000)], { target: tgt, ratio: 0.79, p99: 9 })).to.deep.equal({ met: false, text: '**not met** (ratio 0.79 < 0.8)' });
    expect(judge([load(15_000)], { target: tgt, ratio: 0.9, p99: 16 })).to.deep.equal({ met: false, text: '**not met** (p99 16 ms > 15 ms)' });
    expect(judge([load(10_000)], { target: tgt, ratio: 0.5, p99: 16 }).text).to.equal('**not met** (ratio 0.50 < 0.8; p99 16 ms > 15 ms)');
  });

  it('any error or non-2xx answer fails the row, whatever its ratio, and the baseline too', () => {
    expect(judge([load(30_000), load(30_000, { non2xx: 1 })], { target: tgt, ratio: 2, p99: 1 })).to.deep.equal({ met: false, text: '**failed** (0 errors, 1 non-2xx)' });
    expect(judge([load(30_000, { errors: 3 })])).to.deep.equal({ met: false, text: '**failed** (3 errors, 0 non-2xx)' });
    expect(judge([load(30_000)])).to.deep.equal({ met: true, text: '' });
  });

  it('the argon2 row has no p99 target: its logins wait for the thread pool by design', () => {
    expect(judge([load(190, { p99: 400 })], { target: row('argon2').target!, ratio: 0.95, p99: 400 }).met).to.equal(true);
  });

  it("takes each round of a row against its own floor's run of that round, and judges the median of those ratios", () => {
    // Per round 0.9, 1.0 and 0.75 of the floor: median 0.9, met. The medians' ratio (12,000 / 16,000 = 0.75) would miss.
    const results = withRow({ ...threeRounds(), floors: [floor('tgt', [16_000, 12_000, 16_000])] }, 'tgt', [14_400, 12_000, 12_000]);
    const tgtRow = summarise(results, ['memory']).rows.find((candidate) => candidate.short === 'TGT create')!;
    expect(tgtRow.ratio).to.be.closeTo(0.9, 1e-9);
    expect(tgtRow.okPerSecond).to.equal(12_000);
    expect(tgtRow.verdict).to.deep.equal({ met: true, text: 'met' });
    // The ratio to the baseline stays, as information: 0.72, 0.6, 0.6 of 20,000.
    expect(tgtRow.baselineRatio).to.be.closeTo(0.6, 1e-9);
  });

  it('takes JWT and X.509 against the TGT create row of the same configuration, round by round', () => {
    const base = withRow(threeRounds(), 'tgt', [14_400, 10_000, 14_400]);
    const { target: _target, ...untargeted } = row('tgt');
    const results = {
      ...base,
      rows: [
        ...base.rows.filter((candidate) => candidate.row.name !== 'jwt'),
        { configuration: 'memory', row: row('jwt'), runs: rounds([7_200, 6_000, 6_480]) },
        { configuration: 'memory', row: row('x509'), runs: rounds([12_960, 8_900, 12_800]) },
        // Another configuration's TGT row is not the reference.
        { configuration: 'redis', row: untargeted, runs: rounds([1_000, 1_000, 1_000]) },
      ],
    };
    const summary = summarise(results, ['memory']);
    const jwt = summary.rows.find((candidate) => candidate.short === 'JWT TGT create')!;
    const x509 = summary.rows.find((candidate) => candidate.short === 'X.509 login')!;
    expect(jwt.ratio).to.be.closeTo(0.5, 1e-9); // 0.5, 0.6, 0.45
    expect(jwt.verdict.text).to.equal('met');
    expect(x509.ratio).to.be.closeTo(0.89, 1e-9); // 0.9, 0.89, 0.889
    expect(x509.verdict.text).to.equal('**not met** (ratio 0.89 < 0.9)');
    expect(summary.allMet).to.equal(false);
  });

  it("takes the argon2 row against the raw argon2id rate of its own round", () => {
    const argon2 = summarise(threeRounds(), ['memory']).rows.find((candidate) => candidate.short === 'argon2id TGT create')!;
    expect(argon2.ratio).to.be.closeTo(0.95, 1e-9);
    expect(argon2.okPerSecond).to.equal(199.5);
    expect(argon2.verdict.met).to.equal(true);
  });

  it('a row whose reference was not measured is **not judged** and not met, naming the reference', () => {
    const withoutTgt = { ...threeRounds(), rows: threeRounds().rows.filter((candidate) => candidate.row.name !== 'tgt') };
    const jwt = summarise(withoutTgt, ['memory']).rows.find((candidate) => candidate.short === 'JWT TGT create')!;
    expect(jwt).to.not.have.property('ratio');
    expect(jwt.verdict).to.deep.equal({ met: false, text: '**not judged** (its reference, the TGT create row (memory), was not measured)' });

    const withoutFloor = summarise({ ...threeRounds(), floors: [] }, ['memory']);
    expect(withoutFloor.rows.find((candidate) => candidate.short === 'TGT create')!.verdict.text).to.equal(
      '**not judged** (its reference, the floor of TGT create, was not measured)',
    );
    expect(withoutFloor.allMet).to.equal(false);

    const floorShort = summarise({ ...threeRounds(), floors: [{ ...floor('tgt', [16_000, 16_000, 16_000]), runs: rounds([16_000]) }] }, ['memory']);
    expect(floorShort.rows.find((candidate) => candidate.short === 'TGT create')!.verdict.text).to.equal(
      '**not judged** (its reference, the floor of TGT create, has no 2xx rate in rounds 2, 3)',
    );

    const withoutRaw = summarise({ ...threeRounds(), rawArgon2: [] }, ['memory']);
    expect(withoutRaw.rows.find((candidate) => candidate.short === 'argon2id TGT create')!.verdict.text).to.equal(
      '**not judged** (its reference, the raw argon2id verify rate, was not measured)',
    );
  });

  it('one failed round or one target missed makes the whole run not met (what --check exits on)', () => {
    const results = threeRounds();
    expect(summarise(results, ['memory']).allMet).to.equal(true);
    const failing = { ...results, baseline: [...rounds([20_000]), { round: 2, measured: load(20_000, { errors: 1 }) }, { round: 3, measured: load(20_000) }] };
    expect(summarise(failing, ['memory']).allMet).to.equal(false);
    const big = { ...results, memory: [{ ...MILLION_TGTS, rssBytes: 1.3e9 }] };
    expect(summarise(big, ['memory']).allMet).to.equal(false);
    expect(summarise(withRow(results, 'jwt', [7_000, 7_000, 7_000]), ['memory']).allMet).to.equal(false);
  });

  it("another store's rows are shown beside the memory store's without targets: slow is no miss, a failed answer still fails", () => {
    const { target: _target, ...untargeted } = row('tgt');
    const results = threeRounds();
    const redisRow = (rate: number, errors = 0) => ({ configuration: 'redis', row: untargeted, runs: rounds([rate], { errors, p99: 40 }) });
    const slow = summarise({ ...results, rows: [...results.rows, redisRow(4_000)] }, ['memory']);
    expect(slow.rows.at(-1)).to.deep.include({ configuration: 'redis', baselineRatio: 0.2, verdict: { met: true, text: '' } });
    expect(slow.rows.at(-1)).to.not.have.property('target');
    expect(slow.rows.at(-1)).to.not.have.property('ratio');
    expect(slow.allMet).to.equal(true);
    expect(renderTable(slow).split('\n').at(-1)).to.equal('| POST /v1/tickets (TGT create, cheap plain-password handler) | redis | 0.20 |  | 4000 | 2.0 | 40.0 | 100 | 0 | 0 |  |  |');
    const failed = summarise({ ...results, rows: [...results.rows, redisRow(4_000, 2)] }, ['memory']);
    expect(failed.rows.at(-1)?.verdict).to.deep.equal({ met: false, text: '**failed** (2 errors, 0 non-2xx)' });
    expect(failed.allMet).to.equal(false);
  });

  it('a floor is shown right after the baseline with its ratio to the baseline and no target', () => {
    const summary = summarise(threeRounds(), ['memory']);
    expect(summary.rows.map((candidate) => candidate.short)).to.deep.equal(['baseline', 'floor: TGT create', 'TGT create', 'JWT TGT create', 'argon2id TGT create']);
    expect(summary.rows[0]).to.deep.include({ baselineRatio: 1, okPerSecond: 20_000, verdict: { met: true, text: '' } });
    expect(summary.rows[1]).to.deep.include({ label: FLOOR_ROWS[0]!.label, baselineRatio: 0.8, okPerSecond: 16_000, verdict: { met: true, text: '' } });
    expect(summary.rows[1]).to.not.have.property('target');
    expect(summary.rows[1]).to.not.have.property('ratio');
  });

  it('a floor that got a failed answer fails, and the run with it', () => {
    const summary = summarise({ ...threeRounds(), floors: [floor('tgt', [16_000, 16_000, 16_000]), floor('grant', [16_000], { non2xx: 4 })] }, ['memory']);
    expect(summary.rows[2]!.verdict).to.deep.equal({ met: false, text: '**failed** (0 errors, 4 non-2xx)' });
    expect(summary.allMet).to.equal(false);
  });

  it("takes each OIDC row against node-oidc-provider alone's run of the same request in the same round, shown with no target of its own", () => {
    const results = {
      ...threeRounds(),
      library: [libraryReference('code', [400, 500, 400]), libraryReference('userinfo', [1_000, 1_000, 1_000])],
      rows: [
        ...threeRounds().rows,
        // Per round 0.9, 0.76 and 0.875 of the reference: median 0.875, met; userinfo at 0.8 is not.
        { configuration: 'oidc', row: row('code'), runs: rounds([360, 380, 350]) },
        { configuration: 'oidc', row: row('userinfo'), runs: rounds([800, 800, 800]) },
      ],
    };
    const summary = summarise(results, ['memory']);
    expect(summary.rows.map((candidate) => candidate.short)).to.deep.equal([
      'baseline',
      'floor: TGT create',
      'library: OIDC code exchange',
      'library: OIDC userinfo',
      'TGT create',
      'JWT TGT create',
      'argon2id TGT create',
      'OIDC code exchange',
      'OIDC userinfo',
    ]);
    expect(summary.rows[2]).to.deep.include({ configuration: 'node-oidc-provider', okPerSecond: 400, verdict: { met: true, text: '' } });
    expect(summary.rows[2]).to.not.have.property('target');
    const code = summary.rows.find((candidate) => candidate.short === 'OIDC code exchange')!;
    expect(code.ratio).to.be.closeTo(0.875, 1e-9);
    expect(code.verdict).to.deep.equal({ met: true, text: 'met' });
    const userinfo = summary.rows.find((candidate) => candidate.short === 'OIDC userinfo')!;
    expect(userinfo.verdict).to.deep.equal({ met: false, text: '**not met** (ratio 0.80 < 0.85)' });
    expect(renderTable(summary).split('\n').at(-1)).to.equal(
      '| GET /oidc/me (bearer access token) | oidc | 0.04 | 0.80 | 800 | 2.0 | 9.0 | 100 | 0 | 0 | ≥ 0.85 of node-oidc-provider alone | **not met** (ratio 0.80 < 0.85) |',
    );
    const unmeasured = summarise({ ...results, library: [] }, ['memory']).rows.find((candidate) => candidate.short === 'OIDC code exchange')!;
    expect(unmeasured.verdict.text).to.equal('**not judged** (its reference, the OIDC code exchange of node-oidc-provider alone, was not measured)');
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
