import { Slapd, slapdInstalled } from './slapd-server.js';
import { opensslInstalled } from './tls-files.js';

const skipNoticeShown = new Set<string>();

/**
 * A mocha suite run against a fresh slapd: launched in `before`, disposed in `after` (which mocha
 * runs even when tests fail). Without slapd the suite is pending, with one line saying why.
 */
export function describeWithSlapd(title: string, body: (directory: () => Slapd) => void, options: { readonly tls?: boolean } = {}): void {
  describe(title, function () {
    let slapd: Slapd | undefined;
    before(async function () {
      const missing = !slapdInstalled() ? 'slapd is not installed (run scripts/install-slapd.sh)' : options.tls && !opensslInstalled() ? 'openssl is not installed' : undefined;
      if (missing) {
        if (!skipNoticeShown.has(missing)) process.stdout.write(`  LDAP tests skipped: ${missing}\n`);
        skipNoticeShown.add(missing);
        this.skip();
      }
      this.timeout(20_000);
      slapd = await Slapd.launch(options);
    });
    after(async () => {
      await slapd?.dispose();
    });
    body(() => {
      if (!slapd) throw new Error('slapd is not running');
      return slapd;
    });
  });
}
