import { join } from 'node:path';
import { expect } from 'chai';
import { freePort } from '@tessera/testkit';
import { formOf, headingOf } from '../support/browser.js';
import { startCasFixture, type CasFixture } from './cas-fixture.js';
import { makeTempDir, runProgram, skipUnlessInstalled, type TempDir } from './harness.js';
import { OIDC_APACHE_PROBES, startOidcApache, type OidcApache } from './oidc-apache.js';

interface CurlAnswer {
  readonly status: number;
  readonly finalUrl: string;
  readonly headers: string;
  readonly body: string;
}

const CLIENT_SECRET = 'apache-secret-of-at-least-16';

// docs/modules/oidc.md: Apache mod_auth_openidc with tessera as its OpenID Provider, driven as a
// browser goes (curl with one cookie jar): tessera's login form, the claims on the page, a
// mod_auth_cas page on the same session without a second login, and the OIDC logout ending it.
describe('mod_auth_openidc and mod_auth_cas on one tessera session', function () {
  this.timeout(60_000);
  let fixture: CasFixture | undefined;
  let apache: OidcApache | undefined;
  let dir: TempDir | undefined;
  let base = '';

  before(async function () {
    skipUnlessInstalled(this, 'mod_auth_openidc with curl', [...OIDC_APACHE_PROBES, ['curl', '--version']]);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const client = {
      '@class': 'org.apereo.cas.services.OidcRegisteredService',
      id: 50,
      name: 'Apache mod_auth_openidc',
      serviceId: `^http://127\\.0\\.0\\.1:${port}/oidc-app/redirect_uri(\\?.*)?$`,
      clientId: 'apache',
      clientSecret: CLIENT_SECRET,
      scopes: ['java.util.HashSet', ['openid', 'email', 'profile']],
      bypassApprovalPrompt: true,
      attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
    };
    fixture = await startCasFixture({ serviceUrls: [`${base}/cas-app/`], browserLogin: true, oidc: { port: await freePort(), clients: [client] } });
    apache = await startOidcApache({ casUrl: fixture.url, caFile: fixture.caFile, port, clientId: 'apache', clientSecret: CLIENT_SECRET });
    dir = await makeTempDir('curl-oidc');
  });
  after(async () => {
    await apache?.stop();
    await fixture?.close();
    await dir?.remove();
  });

  async function curl(url: string, data: Readonly<Record<string, string>> = {}): Promise<CurlAnswer> {
    const jar = join(dir!.path, 'cookies.txt');
    const form = Object.entries(data).flatMap(([name, value]) => ['--data-urlencode', `${name}=${value}`]);
    const { code, stdout, stderr } = await runProgram('curl', ['-sS', '-i', '-L', '--max-redirs', '20', '-c', jar, '-b', jar, '--cacert', fixture!.caFile, ...form, '-w', '\n%{http_code} %{url_effective}', url]);
    if (code !== 0) throw new Error(`curl ${url}: exit ${code}: ${stderr}`);
    const cut = stdout.lastIndexOf('\n');
    const [status, finalUrl] = stdout.slice(cut + 1).split(' ') as [string, string];
    const answer = stdout.slice(0, cut);
    const last = answer.split(/\r\n\r\n(?=HTTP\/)/).pop()!;
    const split = last.indexOf('\r\n\r\n');
    return { status: Number(status), finalUrl, headers: last.slice(0, split), body: last.slice(split + 4) };
  }

  async function why(): Promise<string> {
    return `\nApache log:\n${(await apache?.errorLog())?.split('\n').slice(-30).join('\n') ?? ''}\ntessera log:\n${fixture?.tessera.logs.slice(-20).join('\n') ?? ''}`;
  }

  it("logs in through tessera's form, sees the claims, opens the CAS page without a second login, and the OIDC logout ends the CAS session", async () => {
    const form = await curl(`${base}/oidc-app/`);
    expect(headingOf(form.body), await why()).to.equal('Log in');
    const login = formOf(form.body);
    const page = await curl(new URL(login.action, form.finalUrl).toString(), { ...login.hidden, username: 'casuser', password: 'Mellon' });
    expect(page.status, await why()).to.equal(200);
    expect(page.finalUrl).to.equal(`${base}/oidc-app/`);
    expect(page.body).to.equal('oidc-app\n');
    expect(page.headers).to.match(/^OIDC_CLAIM_sub: casuser$/im);

    const cas = await curl(`${base}/cas-app/`);
    expect(cas.status, await why()).to.equal(200);
    expect(cas.finalUrl).to.equal(`${base}/cas-app/`);
    expect(cas.headers).to.match(/^CAS-User: casuser$/im);

    // RP-initiated logout through mod_auth_openidc: tessera asks to confirm, then ends its session.
    const confirm = await curl(`${base}/oidc-app/redirect_uri?logout=${encodeURIComponent(`${base}/oidc-app/redirect_uri`)}`);
    expect(confirm.status, await why()).to.equal(200);
    const action = /action="([^"]+)"/.exec(confirm.body)?.[1]?.replace(/&amp;/g, '&');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)?.[1];
    expect(action, confirm.body).to.be.a('string');
    await curl(new URL(action!, confirm.finalUrl).toString(), { xsrf: xsrf!, logout: 'yes' });
    const after = await curl(`${fixture!.url}/login`);
    expect(headingOf(after.body), await why()).to.equal('Log in');

    // CAS single logout told mod_auth_cas: its page asks for the form again.
    const delivered = () => fixture!.tessera.audit.some((line) => line.includes('"action":"logout.request.delivered"'));
    const deadline = Date.now() + 10_000;
    while (!delivered() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const casAgain = await curl(`${base}/cas-app/`);
    expect(headingOf(casAgain.body), await why()).to.equal('Log in');
  });
});
