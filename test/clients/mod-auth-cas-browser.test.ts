import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { formOf, headingOf } from '../support/browser.js';
import { APACHE_PROBES, startCasApache, type CasApache } from './apache.js';
import { startCasFixture, type CasFixture } from './cas-fixture.js';
import { freePort } from '@tessera/testkit';
import { makeTempDir, runProgram, skipUnlessInstalled, type TempDir } from './harness.js';

interface CurlAnswer {
  readonly status: number;
  readonly finalUrl: string;
  readonly body: string;
}

// docs/protocol.md §12, driven the way a browser goes: curl with a cookie jar, following every redirect,
// through a page Apache mod_auth_cas protects, tessera's login form, and back; then single logout.
describe('mod_auth_cas protects a page: curl logs in through the tessera form (docs/protocol.md §12)', function () {
  this.timeout(60_000);
  let fixture: CasFixture | undefined;
  let apache: CasApache | undefined;
  let dir: TempDir | undefined;
  let app = '';
  let other = '';

  before(async function () {
    skipUnlessInstalled(this, 'mod_auth_cas with curl', [...APACHE_PROBES, ['curl', '--version']]);
    const port = await freePort();
    app = `http://127.0.0.1:${port}/app/`;
    other = `http://127.0.0.1:${port}/other/`;
    fixture = await startCasFixture({ serviceUrls: [app, other], browserLogin: true });
    apache = await startCasApache({ casUrl: fixture.url, caFile: fixture.caFile, port });
    dir = await makeTempDir('curl');
  });
  after(async () => {
    await apache?.stop();
    await fixture?.close();
    await dir?.remove();
  });

  /** One curl run sharing the cookie jar: follows redirects, trusts tessera's CA; `data` makes it a form POST. */
  async function curl(url: string, data: Readonly<Record<string, string>> = {}): Promise<CurlAnswer> {
    const jar = join(dir!.path, 'cookies.txt');
    const form = Object.entries(data).flatMap(([name, value]) => ['--data-urlencode', `${name}=${value}`]);
    const { code, stdout, stderr } = await runProgram('curl', ['-sS', '-L', '--max-redirs', '10', '-c', jar, '-b', jar, '--cacert', fixture!.caFile, ...form, '-w', '\n%{http_code} %{url_effective}', url]);
    if (code !== 0) throw new Error(`curl ${url}: exit ${code}: ${stderr}`);
    const cut = stdout.lastIndexOf('\n');
    const [status, finalUrl] = stdout.slice(cut + 1).split(' ') as [string, string];
    return { status: Number(status), finalUrl, body: stdout.slice(0, cut) };
  }

  async function why(): Promise<string> {
    return `\nmod_auth_cas log:\n${(await apache?.errorLog()) ?? ''}\ntessera log:\n${fixture?.tessera.logs.slice(-20).join('\n') ?? ''}`;
  }

  it('logs in through the form, signs on to a second page without it, and single logout ends both sessions', async () => {
    // Apache sends curl to tessera, which shows its form.
    const form = await curl(app);
    expect(form.status, await why()).to.equal(200);
    expect(form.finalUrl).to.equal(`${fixture!.url}/login?service=${encodeURIComponent(app).toLowerCase()}`);
    expect(headingOf(form.body)).to.equal('Log in');

    // Submitting it: tessera → 302 app?ticket=ST → mod_auth_cas validates → 302 app → the page.
    const { action, hidden } = formOf(form.body);
    const page = await curl(new URL(action, form.finalUrl).toString(), { ...hidden, username: 'casuser', password: 'Mellon' });
    expect(page.status, await why()).to.equal(200);
    expect(page.finalUrl).to.equal(app);
    expect(page.body).to.equal('app\n');
    // Over tessera's own TLS listener the TGC is Secure (curl's jar: #HttpOnly_ prefix, TRUE in the secure column).
    const jar = await readFile(join(dir!.path, 'cookies.txt'), 'utf8');
    expect(jar).to.match(/^#HttpOnly_127\.0\.0\.1\tFALSE\t\/cas\tTRUE\t0\tTGC\t[\w.-]+$/m);

    // Single sign-on: the second page needs no form.
    const second = await curl(other);
    expect(second.status, await why()).to.equal(200);
    expect(second.finalUrl).to.equal(other);
    expect(second.body).to.equal('other\n');
    expect(await apache!.ticketMapEntries()).to.equal(2);

    // Logout: tessera tells mod_auth_cas about both tickets; it drops both sessions.
    const out = await curl(`${fixture!.url}/logout`);
    expect(headingOf(out.body)).to.equal('You are logged out');
    const delivered = () => fixture!.tessera.audit.filter((line) => line.includes('"action":"logout.request.delivered"')).length;
    const deadline = Date.now() + 10_000;
    while (((await apache!.ticketMapEntries()) > 0 || delivered() < 2) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await apache!.ticketMapEntries(), await why()).to.equal(0);
    expect(delivered()).to.equal(2);

    // The Apache session cookie is still in the jar, but the session is gone: the form again.
    const again = await curl(app);
    expect(again.finalUrl, await why()).to.match(/\/cas\/login\?service=/);
    expect(headingOf(again.body)).to.equal('Log in');
  });
});
