import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CONFIGURATIONS } from '../src/configurations.js';
import type { Environment } from '../src/environment.js';
import { rawWebAuthnLine, renderDocument } from '../src/markdown.js';
import { benchOptions } from '../src/options.js';
import { renderPlot } from '../src/plot.js';
import { renderMemoryTable, renderTable } from '../src/table.js';
import { summarise } from '../src/verdicts.js';
import { threeRounds, withRow } from './results-fixture.js';

describe('bench report rendering', () => {
  const summary = summarise(threeRounds(), ['memory']);

  describe('the table', () => {
    const lines = renderTable(summary).split('\n');

    it('has a row per measured row, each with its ratios to the baseline and to its reference, 2xx req/s, p50, p99, server CPU, errors, non-2xx, target and verdict', () => {
      expect(lines[0]).to.equal('| Row | server | ratio to baseline | ratio to reference | 2xx req/s | p50 ms | p99 ms | server CPU µs/req | errors | non-2xx | target | verdict |');
      expect(lines).to.have.length(2 + 5);
      expect(lines[2]).to.equal('| baseline: Koa + @koa/router + koa-body POST → 201 | Koa | 1.00 |  | 20000 | 2.0 | 9.0 | 100 | 0 | 0 |  |  |');
      expect(lines[3]).to.match(/^\| floor of TGT create: /).and.contain('| Koa | 0.80 |  | 16000 |');
      expect(lines[4]).to.equal('| POST /v1/tickets (TGT create, cheap plain-password handler) | memory | 0.72 | 0.90 | 14400 | 2.0 | 9.0 | 100 | 0 | 0 | ≥ 0.8 of its floor, p99 ≤ 15 ms | met |');
      expect(lines[5]).to.equal('| POST /v1/tickets token=true (JWT TGT create) | memory | 0.36 | 0.50 | 7200 | 2.0 | 9.0 | 100 | 0 | 0 | ≥ 0.5 of TGT create, p99 ≤ 15 ms | met |');
      expect(lines[6]).to.contain('| memory | 0.01 | 0.95 | 200 |').and.contain('| ≥ 0.9 of raw argon2id verify | met |');
    });

    it('prints **not met** beside a target missed, and **not judged** with no ratio where the reference is missing', () => {
      const slow = withRow(threeRounds(), 'tgt', [11_200, 11_200, 11_200], { p99: 20 });
      expect(renderTable(summarise(slow, ['memory']))).to.contain('| 0.56 | 0.70 | 11200 | 2.0 | 20.0 |').and.contain('| **not met** (ratio 0.70 < 0.8; p99 20 ms > 15 ms) |');
      const withoutFloor = renderTable(summarise({ ...threeRounds(), floors: [] }, ['memory']));
      expect(withoutFloor).to.contain('| memory | 0.72 |  | 14400 |').and.contain('| **not judged** (its reference, the floor of TGT create, was not measured) |');
    });

    it('gives the memory figure in MiB and GB with its verdict', () => {
      expect(renderMemoryTable(summary.memory).split('\n')[2]).to.equal(
        '| 1,000,000 live TGTs created over HTTP | memory | 1049 MiB (1.10 GB; 100 MiB before) | 900 MiB | 120 s | < 1.2 GB RSS after GC at 1,000,000 | met |',
      );
      expect(renderMemoryTable([{ configuration: 'memory', verdict: { met: false, text: '**not measured**' } }])).to.contain('| **not measured** |');
    });
  });

  describe('the SVG plot', () => {
    type Drawn = { svg: { rect: Record<string, string>[]; line: Record<string, string>[]; text: (string | { '#text': string | number })[] } };
    const parse = (svg: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg) as Drawn;
    const texts = (drawn: Drawn) => drawn.svg.text.map((text) => String(typeof text === 'object' ? text['#text'] : text));
    // TGT create at 0.5 of its floor (not met); JWT at 7,200 / 8,000 = 0.9 of TGT create (met); argon2 at 0.95 of raw (met).
    const slowTgt = summarise(withRow(threeRounds(), 'tgt', [8_000, 8_000, 8_000]), ['memory']);
    const svg = renderPlot(slowTgt.rows, 'tessera <& its references');
    const parsed = parse(svg);

    it('is well-formed SVG that needs no browser', () => {
      expect(XMLValidator.validate(svg)).to.equal(true);
      expect(svg).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).to.contain('tessera &#60;&#38; its references');
    });

    it('draws one bar per judged row, none for the baseline or the floors, red when not met and green when met, long as its ratio to its reference', () => {
      const bars = parsed.svg.rect.slice(1);
      expect(bars.map((bar) => bar['fill'])).to.deep.equal(['#c62828', '#2e7d32', '#2e7d32']);
      const [tgt, jwt, argon2] = bars.map((bar) => Number(bar['width']));
      expect(tgt! / argon2!).to.be.closeTo(0.5 / 0.95, 0.01);
      expect(jwt! / argon2!).to.be.closeTo(0.9 / 0.95, 0.01);
    });

    it('names under each row the reference its bar is taken against, and gives its ratio and p99 beside their targets', () => {
      const drawn = texts(parsed);
      expect(drawn).to.include.members(['TGT create (memory)', '÷ its floor', 'JWT TGT create (memory)', '÷ TGT create', 'argon2id TGT create (memory)', '÷ raw argon2id verify']);
      expect(drawn).to.include.members(['0.50 (target ≥ 0.8)', 'p99 9 ms (target ≤ 15)', '0.90 (target ≥ 0.5)', '0.95 (target ≥ 0.9)']);
      expect(drawn).to.not.include('floor: TGT create');
    });

    it('writes in red the figure that missed its part of the target', () => {
      const late = parse(renderPlot(summarise(withRow(threeRounds(), 'jwt', [7_200, 7_200, 7_200], { p99: 20 }), ['memory']).rows, 'late'));
      const fills = Object.fromEntries(late.svg.text.flatMap((text) => (typeof text === 'object' ? [[String(text['#text']), (text as Record<string, string>)['fill']]] : [])));
      expect(fills).to.include({ '0.90 (target ≥ 0.8)': '#000000', 'p99 9 ms (target ≤ 15)': '#555555', '0.50 (target ≥ 0.5)': '#000000', 'p99 20 ms (target ≤ 15)': '#c62828' });
      const slow = parse(svg).svg.text.find((text) => typeof text === 'object' && text['#text'] === '0.50 (target ≥ 0.8)') as Record<string, string>;
      expect(slow['fill']).to.equal('#c62828');
    });

    it('marks each target where its ratio would be', () => {
      const marks = parsed.svg.line.filter((line) => line['stroke-width'] === '3');
      const start = Number(parsed.svg.rect[1]!['x']);
      const [tgtMark, jwtMark, argon2Mark] = marks.map((mark) => Number(mark['x1']) - start);
      expect(tgtMark! / argon2Mark!).to.be.closeTo(0.8 / 0.9, 0.01);
      expect(jwtMark! / argon2Mark!).to.be.closeTo(0.5 / 0.9, 0.01);
    });

    it('draws no bar for a row whose reference was not measured, and says it is not judged', () => {
      const drawn = parse(renderPlot(summarise({ ...threeRounds(), floors: [] }, ['memory']).rows, 'without the floor'));
      expect(drawn.svg.rect.slice(1).map((bar) => bar['fill'])).to.deep.equal(['#2e7d32', '#2e7d32']);
      expect(texts(drawn)).to.include('not judged');
    });
  });
});

describe('docs/benchmarks.md as generated', () => {
  const results = threeRounds();
  const options = benchOptions([], { UV_THREADPOOL_SIZE: '6' });
  const environment: Environment = {
    date: '2026-11-25T12:00:00.000Z',
    command: 'pnpm bench --markdown',
    cpu: 'AMD EPYC 7B13',
    cores: 2,
    memoryGiB: 23.5,
    node: 'v20.20.2',
    versions: ['autocannon 8.0.0', 'koa 3.3.0'],
    commit: 'a7d96003dc4b',
    loadAverage: '0.10 0.20 0.30',
  };
  const document = renderDocument({ environment, loadAverageAtEnd: '1.00 1.10 1.20', options, configurations: CONFIGURATIONS, results, summary: summarise(results, ['memory']), plot: 'benchmarks.svg' });

  it('states the machine, the versions and the commit', () => {
    expect(document).to.contain('- AMD EPYC 7B13, 2 cores, 23.5 GiB memory; load average 0.10 0.20 0.30 at the start, 1.00 1.10 1.20 at the end.');
    expect(document).to.contain('- Node v20.20.2; autocannon 8.0.0, koa 3.3.0.');
    expect(document).to.contain('tessera at `a7d96003dc4b`');
  });

  it('shows the plot, the table, the memory figure, the raw argon2 runs and the overall verdict', () => {
    expect(document).to.contain("![Each judged row's ratio to its reference, against its target](benchmarks.svg)");
    expect(document).to.contain(renderTable(summarise(results, ['memory'])));
    expect(document).to.contain('| 1,000,000 live TGTs created over HTTP | memory |');
    expect(document).to.contain('one run right before each argon2 row run: 200.0, 210.0, 220.0 /s (median 210.0), 10000 µs CPU per verify.');
    expect(document).to.contain('Targets: **all met** in this run');
  });

  it('states the targets against the references, and keeps the ratio to the baseline as information', () => {
    expect(document).to.contain(
      'TGT create ≥ 0.8 of its floor, p99 ≤ 15 ms; ST grant ≥ 0.85 of its floor, p99 ≤ 15 ms; serviceValidate ≥ 0.8 of its floor, p99 ≤ 15 ms; ' +
        'JWT TGT create ≥ 0.5 of TGT create, p99 ≤ 15 ms; X.509 login ≥ 0.9 of TGT create, p99 ≤ 15 ms; argon2id TGT create ≥ 0.9 of raw argon2id verify; ' +
        'OIDC code exchange ≥ 0.85 of node-oidc-provider alone; OIDC userinfo ≥ 0.85 of node-oidc-provider alone.',
    );
    expect(document).to.contain("A row's ratio is each round's 2xx req/s over its reference's in the same\n  round");
    expect(document).to.contain('A row whose reference was not measured is **not judged**, and not met; `--rows jwt` or\n  `x509` therefore measures TGT create too.');
    expect(document).to.contain('The ratio to the baseline of the same round (median\n  of rounds) is in the table as information');
  });

  it('explains the floors: no row can beat the Koa route that only writes its lines', () => {
    expect(document).to.contain('by tessera\'s own writers');
    expect(document).to.contain('No row can be faster than its floor');
  });

  it('explains the OIDC rows\' reference: node-oidc-provider alone with the same settings, checked to answer alike, right before each row', () => {
    expect(document).to.contain('node-oidc-provider alone (the version tessera runs, pinned in the bench too), in a process of its own on node:http');
    expect(document).to.contain('the bench checks that both answer alike');
    expect(document).to.contain('runs right\n  before it in every round');
  });

  it('explains how the argon2 row is measured: interleaved, same concurrency, same thread pool', () => {
    expect(document).to.contain('with 50 verifications in flight');
    expect(document).to.contain('`UV_THREADPOOL_SIZE=6` for both');
    expect(document).to.contain('row / the raw rate measured just before it');
  });
});

describe('the WebAuthn assertion verification line', () => {
  it('reports the rate per round, its median and CPU per verify, and its ratio to the raw argon2id rate of the same rounds, judged by no target', () => {
    expect(rawWebAuthnLine(threeRounds())).to.equal(
      "WebAuthn assertion verification (the webauthn module's ceremonies: ES256 signature, challenge, origin, RP id, counter), one run right after each raw argon2id run: 4000.0, 4200.0, 4400.0 /s (median 4200.0), 250 µs CPU per verify; 20.0× the raw argon2id verify rate (median of the rounds). Reported, not judged.",
    );
    expect(rawWebAuthnLine({ ...threeRounds(), rawWebAuthn: [] })).to.equal('No WebAuthn assertion verification was measured.');
  });
});
