import { expect } from 'chai';
import { CONFIGURATIONS, selectedConfigurations } from '../src/configurations.js';
import { sampleValue } from '../src/metrics.js';
import { benchOptions } from '../src/options.js';
import { cpuTicks, residentKiB, rssBytes } from '../src/processes/proc.js';
import { soakVerdict } from '../src/soak-verdict.js';

describe('bench inputs', () => {
  describe('/proc readings', () => {
    it('adds utime and stime of a stat line, even when the command name holds spaces and parentheses', () => {
      const stat = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194560 61234 0 12 0 1500 321 0 0 20 0 11 0 3456 1234567 8901 18446744073709551615';
      expect(cpuTicks(stat)).to.equal(1821);
      expect(() => cpuTicks('nonsense')).to.throw(/not a \/proc\/<pid>\/stat line/);
    });

    it('reads VmRSS in KiB, and this process reads close to what Node says of itself', () => {
      expect(residentKiB('Name:\tnode\nVmPeak:\t  999 kB\nVmRSS:\t   52344 kB\nRssAnon:\t1 kB\n')).to.equal(52344);
      const ratio = rssBytes(process.pid) / process.memoryUsage().rss;
      expect(ratio).to.be.within(0.8, 1.25);
    });
  });

  it('reads an unlabelled sample of the Prometheus exposition', () => {
    const text = '# HELP tessera_tgts_live Live TGTs\n# TYPE tessera_tgts_live gauge\ntessera_tgts_live 1000000\ntessera_tgts_live_other 3\n';
    expect(sampleValue(text, 'tessera_tgts_live')).to.equal(1_000_000);
    expect(() => sampleValue('', 'tessera_tgts_live')).to.throw('no sample tessera_tgts_live');
  });

  describe('pnpm bench options', () => {
    it('measures 3 rounds of 10 s at 50 connections and 1M TGTs by default; --quick shortens all but the connections', () => {
      expect(benchOptions([], {})).to.deep.equal({ connections: 50, duration: 10, warmup: 3, rounds: 3, tickets: 1_000_000, poolSize: 4, check: false, markdown: false, quick: false });
      expect(benchOptions(['--', '--quick', '--check', '--markdown'], {})).to.include({ connections: 50, duration: 2, rounds: 1, tickets: 20_000, check: true, markdown: true });
    });

    it('takes the thread pool from --pool-size, else UV_THREADPOOL_SIZE', () => {
      expect(benchOptions([], { UV_THREADPOOL_SIZE: '8' }).poolSize).to.equal(8);
      expect(benchOptions(['--pool-size', '2'], { UV_THREADPOOL_SIZE: '8' }).poolSize).to.equal(2);
    });

    it('refuses a bad number naming the flag, and an unknown flag', () => {
      expect(() => benchOptions(['--rounds', '0'], {})).to.throw('--rounds: expected a whole number ≥ 1, got "0"');
      expect(() => benchOptions(['--soak', '3'], {})).to.throw(/--soak/);
    });

    it('narrows a run to the rows and servers named, and refuses a row or server that does not exist', () => {
      const options = benchOptions(['--rows', 'grant, validate', '--servers', 'memory', '--cpu-prof', '/tmp/profiles'], {});
      expect(options).to.deep.include({ rows: ['grant', 'validate'], servers: ['memory'], cpuProfileDir: '/tmp/profiles' });
      const [memory, ...others] = selectedConfigurations(CONFIGURATIONS, options);
      expect(others).to.deep.equal([]);
      expect(memory?.rows).to.deep.equal(['grant', 'validate']);
      expect(selectedConfigurations(CONFIGURATIONS, {}).map((configuration) => configuration.rows)).to.deep.equal(CONFIGURATIONS.map((configuration) => configuration.rows));
      expect(() => benchOptions(['--rows', 'tgt,status'], {})).to.throw('--rows: no row "status"');
      expect(() => benchOptions(['--rows', ','], {})).to.throw('--rows: expected a comma-separated list');
      expect(() => selectedConfigurations(CONFIGURATIONS, { servers: ['cassandra'] })).to.throw('--servers: no server configuration "cassandra"');
    });

    it('measures the row a named row is taken against too: --rows jwt or x509 brings TGT create, in the configurations held to the targets', () => {
      const rowsOf = (rows: readonly string[]) => selectedConfigurations(CONFIGURATIONS, benchOptions(['--rows', rows.join(',')], {})).map((configuration) => [configuration.name, configuration.rows]);
      expect(rowsOf(['jwt'])).to.deep.equal([['memory', ['tgt', 'jwt']], ['redis', []], ['oidc', []], ['saml2', []]]);
      expect(rowsOf(['x509', 'grant'])).to.deep.equal([['memory', ['tgt', 'grant', 'x509']], ['redis', ['grant']], ['oidc', []], ['saml2', []]]);
      expect(rowsOf(['validate', 'argon2'])).to.deep.equal([['memory', ['validate', 'argon2']], ['redis', ['validate']], ['oidc', []], ['saml2', []]]);
      expect(rowsOf(['userinfo'])).to.deep.equal([['memory', []], ['redis', []], ['oidc', ['userinfo']], ['saml2', []]]);
      expect(rowsOf(['saml', 'tgt'])).to.deep.equal([['memory', ['tgt']], ['redis', ['tgt']], ['oidc', []], ['saml2', ['saml']]]);
    });
  });

  describe('the soak verdict', () => {
    const MIB = 2 ** 20;
    const samples = (rss: (second: number) => number) => Array.from({ length: 31 }, (_, index) => ({ second: index * 10, rssBytes: rss(index * 10) * MIB }));

    it('is met when the last minute’s median RSS is within 5% of the second minute’s and nothing failed, whatever one sample caught', () => {
      const verdict = soakVerdict(samples((second) => (second < 60 ? 120 : second === 270 ? 400 : 200 + (second % 20 === 0 ? 4 : -4))), 300, 0);
      expect(verdict.met).to.equal(true);
      expect(verdict.secondMinuteBytes / MIB).to.be.closeTo(200, 2);
      expect(verdict.text).to.equal('met: second minute 200.0 MiB, last minute 204.0 MiB (+2.0%), 0 failed requests');
    });

    it('is not met when RSS grows more than 5%, or when a request failed', () => {
      const growing = soakVerdict(samples((second) => 200 + second / 5), 300, 0);
      expect(growing.met).to.equal(false);
      expect(growing.text).to.match(/^\*\*not met\*\* \(RSS moved \+?\d+\.\d% \(more than 5%\)\)/);
      const failing = soakVerdict(samples(() => 200), 300, 2);
      expect(failing.met).to.equal(false);
      expect(failing.text).to.contain('2 failed requests');
    });
  });
});
