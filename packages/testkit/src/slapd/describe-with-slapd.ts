import { Slapd, slapdInstalled } from './slapd-server.js';

let skipNoticeShown = false;

/**
 * A mocha suite run against a fresh slapd: launched in `before`, disposed in `after` (which mocha
 * runs even when tests fail). Without slapd the suite is pending, with one line saying why.
 */
export function describeWithSlapd(title: string, body: (directory: () => Slapd) => void): void {
  describe(title, function () {
    let slapd: Slapd | undefined;
    before(async function () {
      if (!slapdInstalled()) {
        if (!skipNoticeShown) process.stdout.write('  LDAP tests skipped: slapd is not installed (run scripts/install-slapd.sh)\n');
        skipNoticeShown = true;
        this.skip();
      }
      this.timeout(20_000);
      slapd = await Slapd.launch();
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
