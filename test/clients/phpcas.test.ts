import { expect } from 'chai';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { OPENSSL_PROBE, startCasFixture, type CasFixture } from './cas-fixture.js';
import { freePort, makeTempDir, skipUnlessInstalled, startChildServer, type ChildServer, type TempDir } from './harness.js';

interface PageAnswer {
  readonly user?: string;
  readonly attributes?: Record<string, string | string[]>;
  readonly error?: string;
}

// protocol.md §3, checked by phpCAS 1.6 (CAS_VERSION_3_0: /p3/serviceValidate over HTTPS) in `php -S`.
describe('phpCAS validates tessera service tickets (protocol.md §3)', function () {
  this.timeout(30_000);
  let fixture: CasFixture | undefined;
  let dir: TempDir | undefined;
  let php: ChildServer | undefined;
  let page = '';
  let otherPage = '';

  before(async function () {
    const phpcasLoads = 'require "CAS.php"; exit(extension_loaded("curl") && extension_loaded("dom") ? 0 : 1);';
    skipUnlessInstalled(this, 'phpCAS', [['php', '-d', 'error_reporting=0', '-r', phpcasLoads], OPENSSL_PROBE]);
    const port = await freePort();
    // phpCAS builds the service URL from its service base URL and the request path, minus `ticket`.
    const base = `http://127.0.0.1:${port}`;
    page = `${base}/app.php`;
    otherPage = `${base}/other.php`;
    fixture = await startCasFixture({ serviceUrls: [page, otherPage] });
    dir = await makeTempDir('phpcas');
    const docroot = join(dir.path, 'www');
    const sessions = join(dir.path, 'sessions');
    await mkdir(docroot);
    await mkdir(sessions);
    await copyFile(new URL('phpcas-app.php', import.meta.url), join(docroot, 'app.php'));
    const cas = new URL(fixture.httpsUrl);
    const env = { ...process.env, CAS_HOST: cas.hostname, CAS_PORT: cas.port, CAS_URI: cas.pathname, CAS_CA_FILE: fixture.caFile, SERVICE_BASE_URL: base };
    const args = ['-d', `session.save_path=${sessions}`, '-d', 'error_reporting=E_ALL & ~E_DEPRECATED', '-S', `127.0.0.1:${port}`, '-t', docroot];
    php = await startChildServer('php', args, { port, cwd: dir.path, env });
  });
  after(async () => {
    await php?.stop();
    await fixture?.close();
    await dir?.remove();
  });

  async function answerOf(response: Response): Promise<PageAnswer> {
    const text = await response.text();
    try {
      return JSON.parse(text) as PageAnswer;
    } catch {
      throw new Error(`not the page's JSON (status ${response.status}): ${text}\n${php?.output() ?? ''}`);
    }
  }

  it('accepts a fresh ticket, redirects to the clean URL with a session, and reports casuser with attributes', async () => {
    const ticket = await fixture!.ticketFor(page);
    const landing = await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' });
    expect(landing.status, php!.output()).to.equal(302);
    expect(landing.headers.get('location')).to.equal(page);
    const session = landing.headers.get('set-cookie')?.split(';')[0];
    expect(session).to.match(/^PHPSESSID=/);

    const answer = await answerOf(await fetch(page, { headers: { cookie: session! }, redirect: 'manual' }));
    expect(answer.user).to.equal('casuser');
    expect(answer.attributes?.['mail']).to.equal('casuser@example.org');
    expect(answer.attributes?.['memberOf']).to.deep.equal(['staff', 'faculty']);
  });

  it('refuses a replayed ticket (INVALID_TICKET)', async () => {
    const ticket = await fixture!.ticketFor(page);
    expect((await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' })).status).to.equal(302);
    const replay = await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' });
    expect(replay.status).to.equal(401);
    expect((await answerOf(replay)).error).to.include('Reason: [INVALID_TICKET]');
  });

  it('refuses a ticket issued for another service (INVALID_SERVICE)', async () => {
    const ticket = await fixture!.ticketFor(otherPage);
    const response = await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' });
    expect(response.status).to.equal(401);
    expect((await answerOf(response)).error).to.include('Reason: [INVALID_SERVICE]');
  });
});
