import { expect } from 'chai';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { form, login } from '../support/tessera.js';
import { OPENSSL_PROBE, startCasFixture, type CasFixture } from './cas-fixture.js';
import { freePort, makeTempDir, skipUnlessInstalled, startChildServer, type ChildServer, type TempDir } from './harness.js';

interface PageAnswer {
  readonly user?: string;
  readonly attributes?: Record<string, string | string[]>;
  readonly error?: string;
}

// Apereo CAS protocol §4 (SAML 1.1), checked by phpCAS 1.6 in SAML_VERSION_1_1 mode: POST /samlValidate?TARGET= over HTTPS.
describe('phpCAS (SAML 1.1) logs in with a ticket granted for TARGET', function () {
  this.timeout(30_000);
  let fixture: CasFixture | undefined;
  let dir: TempDir | undefined;
  let php: ChildServer | undefined;
  let page = '';

  before(async function () {
    const phpcasLoads = 'require "CAS.php"; exit(extension_loaded("curl") && extension_loaded("dom") ? 0 : 1);';
    skipUnlessInstalled(this, 'phpCAS', [['php', '-d', 'error_reporting=0', '-r', phpcasLoads], OPENSSL_PROBE]);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    page = `${base}/app.php`;
    fixture = await startCasFixture({ serviceUrls: [page] });
    dir = await makeTempDir('phpcas-saml');
    const docroot = join(dir.path, 'www');
    const sessions = join(dir.path, 'sessions');
    await mkdir(docroot);
    await mkdir(sessions);
    await copyFile(new URL('phpcas-app.php', import.meta.url), join(docroot, 'app.php'));
    const cas = new URL(fixture.httpsUrl);
    const env = { ...process.env, CAS_PROTOCOL: 'saml11', CAS_HOST: cas.hostname, CAS_PORT: cas.port, CAS_URI: cas.pathname, CAS_CA_FILE: fixture.caFile, SERVICE_BASE_URL: base };
    const args = ['-d', `session.save_path=${sessions}`, '-d', 'error_reporting=E_ALL & ~E_DEPRECATED', '-S', `127.0.0.1:${port}`, '-t', docroot];
    php = await startChildServer('php', args, { port, cwd: dir.path, env });
  });
  after(async () => {
    await php?.stop();
    await fixture?.close();
    await dir?.remove();
  });

  /** Logs in over REST and has the TGT grant an ST the SAML 1.1 way: the service named TARGET. */
  async function targetTicket(): Promise<string> {
    const base = fixture!.httpUrl;
    const response = await fetch(`${base}/v1/tickets/${await login(base)}`, form({ TARGET: page }));
    expect(response.status).to.equal(200);
    return response.text();
  }

  async function answerOf(response: Response): Promise<PageAnswer> {
    const text = await response.text();
    try {
      return JSON.parse(text) as PageAnswer;
    } catch {
      throw new Error(`not the page's JSON (status ${response.status}): ${text}\n${php?.output() ?? ''}`);
    }
  }

  it('accepts the ticket and reports casuser with the released attributes, multi-valued kept', async () => {
    const landing = await fetch(`${page}?ticket=${await targetTicket()}`, { redirect: 'manual' });
    expect(landing.status, php!.output()).to.equal(302);
    const session = landing.headers.get('set-cookie')?.split(';')[0];
    expect(session).to.match(/^PHPSESSID=/);

    const answer = await answerOf(await fetch(page, { headers: { cookie: session! }, redirect: 'manual' }));
    expect(answer.user).to.equal('casuser');
    expect(answer.attributes?.['mail']).to.equal('casuser@example.org');
    expect(answer.attributes?.['memberOf']).to.deep.equal(['staff', 'faculty']);
  });

  it('refuses the same ticket a second time', async () => {
    const ticket = await targetTicket();
    expect((await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' })).status).to.equal(302);
    const replay = await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' });
    expect(replay.status).to.equal(401);
    const { error } = await answerOf(replay);
    expect(error).to.include('SA not validated').and.to.include('samlp:RequestDenied').and.to.include('not recognized');
  });
});
