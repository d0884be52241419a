import { expect } from 'chai';
import { mkdir, copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '@tessera/testkit';
import { EXTENDED_KEY_USAGE, KEY_USAGE, TestPki, type TestAuthority } from '@tessera/testkit/pki';
import { overHttps } from '../support/https.js';
import { startCasFixture, type CasFixture } from './cas-fixture.js';
import { makeTempDir, skipUnlessInstalled, startChildServer, type ChildServer, type TempDir } from './harness.js';
import { PHP_APACHE_PROBES, startPhpApache, type PhpApache } from './php-apache.js';
import { skipUnlessPhpcas } from './phpcas-app.js';

interface FrontAnswer {
  readonly user?: string;
  readonly backendStatus?: number;
  readonly backend?: { readonly user?: string; readonly proxies?: string[]; readonly error?: string };
  readonly error?: string;
}

/**
 * A portal (phpCAS in proxy mode, in Apache with mod_php over HTTPS, its certificate from `authority`)
 * calling a back end (phpCAS as a client accepting the portal as proxy, in `php -S`) with proxy tickets,
 * both registered with a tessera that trusts `trustedCa` for callbacks.
 */
class ProxyScene {
  private readonly parts: { close(): Promise<void> }[] = [];
  fixture!: CasFixture;
  portal!: PhpApache;
  backendUrl = '';
  frontUrl = '';

  async start(authority: TestAuthority, trustedCa: TestAuthority): Promise<void> {
    const [portalPort, backendPort] = [await freePort(), await freePort()];
    this.frontUrl = `https://127.0.0.1:${portalPort}/front.php`;
    this.backendUrl = `http://127.0.0.1:${backendPort}/backend.php`;
    const dir = await makeTempDir('phpcas-proxy');
    this.parts.push({ close: () => dir.remove() });
    const caFile = join(dir.path, 'callback-ca.pem');
    await writeFile(caFile, trustedCa.certificate.pem);
    this.fixture = await startCasFixture({ serviceUrls: [this.frontUrl, this.backendUrl], proxy: { caFile, callbackUrl: this.frontUrl } });
    this.parts.unshift(this.fixture);
    const cas = new URL(this.fixture.url);
    const casEnv = { CAS_HOST: cas.hostname, CAS_PORT: cas.port, CAS_URI: cas.pathname, CAS_CA_FILE: this.fixture.caFile };

    const certificate = await authority.issue({ subject: 'CN=phpCAS portal,O=tessera tests', ipAddress: '127.0.0.1', extendedKeyUsages: [EXTENDED_KEY_USAGE.serverAuth], keyUsage: KEY_USAGE.digitalSignature });
    this.portal = await startPhpApache({
      port: portalPort,
      scripts: { 'front.php': new URL('phpcas-proxy-front.php', import.meta.url) },
      certificatePem: certificate.pem,
      keyPem: certificate.privateKeyPem,
      env: { ...casEnv, SERVICE_BASE_URL: `https://127.0.0.1:${portalPort}`, BACKEND_URL: this.backendUrl },
    });
    this.parts.unshift({ close: () => this.portal.stop() });
    this.parts.unshift(await startBackend(dir, backendPort, { ...casEnv, SERVICE_BASE_URL: `http://127.0.0.1:${backendPort}`, PROXY_CALLBACK: this.frontUrl }));
  }

  /** The user's visit: the portal with a fresh ST, then (redirected, with its session) the page that calls the back end. */
  async visit(ca: string): Promise<{ readonly landing: number; readonly answer: FrontAnswer }> {
    const ticket = await this.fixture.ticketFor(this.frontUrl);
    const landing = await overHttps(`${this.frontUrl}?ticket=${ticket}`, { ca, method: 'GET' });
    // phpCAS renames its session once the ticket is validated: the last session cookie set is the one.
    const cookie = [landing.headers['set-cookie'] ?? []].flat().at(-1)?.split(';')[0] ?? '';
    const page = landing.status === 302 ? await overHttps(this.frontUrl, { ca, method: 'GET', headers: { cookie } }) : landing;
    try {
      return { landing: landing.status, answer: JSON.parse(page.body) as FrontAnswer };
    } catch {
      throw new Error(`not the portal's JSON (status ${page.status}): ${page.body}\n${await this.portal.errorLog()}`);
    }
  }

  async close(): Promise<void> {
    for (const part of this.parts.splice(0)) await part.close();
  }
}

async function startBackend(dir: TempDir, port: number, env: Record<string, string>): Promise<{ close(): Promise<void> }> {
  const docroot = join(dir.path, 'backend');
  const sessions = join(dir.path, 'backend-sessions');
  await mkdir(docroot);
  await mkdir(sessions);
  await copyFile(new URL('phpcas-proxy-backend.php', import.meta.url), join(docroot, 'backend.php'));
  const args = ['-d', `session.save_path=${sessions}`, '-d', 'error_reporting=E_ALL & ~E_DEPRECATED', '-S', `127.0.0.1:${port}`, '-t', docroot];
  const php: ChildServer = await startChildServer('php', args, { port, cwd: dir.path, env: { ...process.env, ...env } });
  return { close: () => php.stop() };
}

// docs/protocol.md §13, checked by phpCAS 1.6 in proxy mode: its PGT arrives at its HTTPS callback, and a
// second phpCAS application validates the proxy ticket at /proxyValidate.
describe('phpCAS proxies through tessera (docs/protocol.md §13)', function () {
  this.timeout(60_000);
  let authority: TestAuthority;
  let stranger: TestAuthority;

  before(async function () {
    skipUnlessPhpcas(this);
    skipUnlessInstalled(this, 'Apache with mod_php and mod_ssl', PHP_APACHE_PROBES);
    const pki = new TestPki();
    authority = await pki.rootAuthority('CN=phpCAS portal CA,O=tessera tests');
    stranger = await pki.rootAuthority('CN=stranger CA,O=elsewhere');
  });

  it('the portal gets its PGT through its HTTPS callback, and the back end accepts its PT, seeing casuser behind the portal', async () => {
    const scene = new ProxyScene();
    try {
      await scene.start(authority, authority);
      const { landing, answer } = await scene.visit(authority.certificate.pem);
      expect(landing, await scene.portal.errorLog()).to.equal(302);
      expect(answer, JSON.stringify(answer)).to.deep.include({ user: 'casuser', backendStatus: 200 });
      expect(answer.backend).to.deep.equal({ user: 'casuser', proxies: [scene.frontUrl] });
      const audit = scene.fixture.tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(audit.filter((line) => line['action'] === 'ticket.created').map((line) => line['kind'])).to.include.members(['PGT', 'PT']);
      expect(audit.some((line) => line['action'] === 'ticket.validated' && line['service'] === scene.backendUrl)).to.equal(true);
    } finally {
      await scene.close();
    }
  });

  it('with a callback certificate tessera does not trust, the portal gets no PGT and phpCAS refuses the login', async () => {
    const scene = new ProxyScene();
    try {
      await scene.start(authority, stranger);
      const { landing, answer } = await scene.visit(authority.certificate.pem);
      expect(landing).to.equal(401);
      expect(answer.error).to.include('Ticket validated but no PGT Iou transmitted');
      const failed = scene.fixture.tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['action'] === 'proxy.callback.failed');
      expect(failed).to.include({ reason: 'certificate', proxy: scene.frontUrl });
    } finally {
      await scene.close();
    }
  });
});
