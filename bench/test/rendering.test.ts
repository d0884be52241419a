import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CONFIGURATIONS } from '../src/configurations.js';
import type { Environment } from '../src/environment.js';
import { renderDocument } from '../src/markdown.js';
import { benchOptions } from '../src/options.js';
import { renderPlot } from '../src/plot.js';
import { renderMemoryTable, renderTable } from '../src/table.js';
import { summarise } from '../src/verdicts.js';
import { floor, load, threeRounds } from './results-fixture.js';

describe('bench report rendering', () => {
  const summary = summarise(threeRounds(), ['memory']);

  describe('the table', () => {
    const lines = renderTable(summary).split('\n');

    it('has a row per measured row, each with ratio, 2xx req/s, p50, p99, server CPU, errors, non-2xx, target and verdict', () => {
      expect(lines[0]).to.equal('| Row | server | ratio | 2xx req/s | p50 ms | p99 ms | server CPU µs/req | errors | non-2xx | target | verdict |');
      expect(lines).to.have.length(2 + 3);
      expect(lines[3]).to.equal('| POST /v1/tickets (TGT create, cheap plain-password handler) | memory | 0.75 | 15000 | 2.0 | 9.0 | 100 | 0 | 0 | ≥ 0.7, p99 ≤ 15 ms | met |');
      expect(lines[4]).to.contain('| 0.95 of raw | 200 |').and.contain('| ≥ 0.9 of raw argon2id verify | met |');
    });

    it('prints **not met** beside a target missed', () => {
      const results = threeRounds();
      const slow = { ...results, rows: [{ ...results.rows[0]!, runs: results.rows[0]!.runs.map((run) => ({ ...run, measured: load(10_000, { p99: 20 }) })) }] };
      expect(renderTable(summarise(slow, ['memory']))).to.contain('| 0.50 | 10000 | 2.0 | 20.0 |').and.contain('| **not met** (ratio 0.50 < 0.7; p99 20 ms > 15 ms) |');
    });

    it('gives the memory figure in MiB and GB with its verdict', () => {
      expect(renderMemoryTable(summary.memory).split('\n')[2]).to.equal(
        '| 1,000,000 live TGTs created over HTTP | memory | 1049 MiB (1.10 GB; 100 MiB before) | 900 MiB | 120 s | < 1.2 GB RSS after GC at 1,000,000 | met |',
      );
      expect(renderMemoryTable([{ configuration: 'memory', verdict: { met: false, text: '**not measured**' } }])).to.contain('| **not measured** |');
    });
  });

  describe('the SVG plot', () => {
    const slowTgt = (() => {
      const results = threeRounds();
      return summarise({ ...results, rows: [{ ...results.rows[0]!, runs: results.rows[0]!.runs.map((run) => ({ ...run, measured: load(8_000) })) }, results.rows[1]!] }, ['memory']);
    })();
    const svg = renderPlot(slowTgt.rows, 'tessera <& baseline');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg) as { svg: { rect: Record<string, string>[]; line: Record<string, string>[]; text: unknown[] } };

    it('is well-formed SVG that needs no browser', () => {
      expect(XMLValidator.validate(svg)).to.equal(true);
      expect(svg).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).to.contain('tessera &#60;&#38; baseline');
    });

    it('draws a bar per judged row, red when not met and green when met, long as its ratio', () => {
      const bars = parsed.svg.rect.slice(1);
      expect(bars.map((bar) => bar['fill'])).to.deep.equal(['#c62828', '#2e7d32']);
      const [tgt, argon2] = bars.map((bar) => Number(bar['width']));
      expect(tgt! / argon2!).to.be.closeTo(0.4 / 0.95, 0.01);
    });

    it('marks each target where its ratio would be', () => {
      const marks = parsed.svg.line.filter((line) => line['stroke-width'] === '3');
      const start = Number(parsed.svg.rect[1]!['x']);
      const [tgtMark, argon2Mark] = marks.map((mark) => Number(mark['x1']) - start);
      expect(tgtMark! / argon2Mark!).to.be.closeTo(0.7 / 0.9, 0.01);
    });

    it("marks a row's floor with grey dashes where its ratio is, and draws no bar for the floor itself", () => {
      const withFloor = summarise({ ...threeRounds(), floors: [floor('tgt', [16_000])] }, ['memory']);
      const drawn = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(renderPlot(withFloor.rows, 'with a floor')) as { svg: { rect: Record<string, string>[]; line: Record<string, string>[] } };
      expect(drawn.svg.rect).to.have.length(1 + 2);
      const start = Number(drawn.svg.rect[1]!['x']);
      const [targetMark] = drawn.svg.line.filter((line) => line['stroke-width'] === '3').map((mark) => Number(mark['x1']) - start);
      const floorMarks = drawn.svg.line.filter((line) => line['stroke-dasharray'] !== undefined);
      expect(floorMarks).to.have.length(1);
      expect((Number(floorMarks[0]!['x1']) - start) / targetMark!).to.be.closeTo(0.8 / 0.7, 0.01);
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
    expect(document).to.contain('![Ratio per row against its target](benchmarks.svg)');
    expect(document).to.contain(renderTable(summarise(results, ['memory'])));
    expect(document).to.contain('| 1,000,000 live TGTs created over HTTP | memory |');
    expect(document).to.contain('one run right before each argon2 row run: 200.0, 210.5, 221.0 /s (median 210.5), 10000 µs CPU per verify.');
    expect(document).to.contain('Targets: **all met** in this run');
  });

  it('explains the floors: no row can beat the Koa route that only writes its lines', () => {
    expect(document).to.contain('by tessera\'s own writers');
    expect(document).to.contain('No row can be faster than its floor');
  });

  it('explains how the argon2 row is measured: interleaved, same concurrency, same thread pool', () => {
    expect(document).to.contain('with 50 verifications in flight');
    expect(document).to.contain('`UV_THREADPOOL_SIZE=6` for both');
    expect(document).to.contain('row / the raw rate measured just before it');
  });
});
