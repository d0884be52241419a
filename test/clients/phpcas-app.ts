import type { Context } from 'mocha';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startCasFixture, type CasFixture } from './cas-fixture.js';
import { freePort } from '@tessera/testkit';
import { makeTempDir, skipUnlessInstalled, startChildServer, type ChildServer } from './harness.js';

/** What phpcas-app.php answers: the user and attributes phpCAS saw, or the error it raised. */
export interface PageAnswer {
  readonly user?: string;
  readonly attributes?: Record<string, string | string[]>;
  readonly error?: string;
}

export interface PhpcasApp {
  /** tessera on its HTTPS listener, with one service per page URL. */
  readonly fixture: CasFixture;
  readonly php: ChildServer;
  /** The URL of a page, e.g. `app.php`: the service URL phpCAS builds for it. */
  url(page: string): string;
  answerOf(response: Response): Promise<PageAnswer>;
  close(): Promise<void>;
}

export function skipUnlessPhpcas(context: Context): void {
  const phpcasLoads = 'require "CAS.php"; exit(extension_loaded("curl") && extension_loaded("dom") ? 0 : 1);';
  skipUnlessInstalled(context, 'phpCAS', [['php', '-d', 'error_reporting=0', '-r', phpcasLoads]]);
}

export interface PhpcasAppOptions {
  readonly pages: readonly string[];
  /** saml11 switches phpCAS to SAML_VERSION_1_1 (/samlValidate); CAS 3.0 (/p3/serviceValidate) otherwise. */
  readonly protocol?: 'saml11';
  /** The CA phpCAS trusts: the one of tessera's certificate unless told `stranger`. */
  readonly trust?: 'stranger';
}

/** phpcas-app.php served by `php -S` on a free loopback port, talking to tessera over HTTPS. */
export async function startPhpcasApp(options: PhpcasAppOptions): Promise<PhpcasApp> {
  const port = await freePort();
  // phpCAS builds the service URL from its service base URL and the request path, minus `ticket`.
  const base = `http://127.0.0.1:${port}`;
  const url = (page: string) => `${base}/${page}`;
  const fixture = await startCasFixture({ serviceUrls: options.pages.map(url) });
  const dir = await makeTempDir(options.protocol === 'saml11' ? 'phpcas-saml' : 'phpcas');
  const docroot = join(dir.path, 'www');
  const sessions = join(dir.path, 'sessions');
  await mkdir(docroot);
  await mkdir(sessions);
  await copyFile(new URL('phpcas-app.php', import.meta.url), join(docroot, 'app.php'));
  const cas = new URL(fixture.url);
  const env = {
    ...process.env,
    ...(options.protocol === undefined ? {} : { CAS_PROTOCOL: options.protocol }),
    CAS_HOST: cas.hostname,
    CAS_PORT: cas.port,
    CAS_URI: cas.pathname,
    CAS_CA_FILE: options.trust === 'stranger' ? fixture.strangerCaFile : fixture.caFile,
    SERVICE_BASE_URL: base,
  };
  const args = ['-d', `session.save_path=${sessions}`, '-d', 'error_reporting=E_ALL & ~E_DEPRECATED', '-S', `127.0.0.1:${port}`, '-t', docroot];
  const php = await startChildServer('php', args, { port, cwd: dir.path, env });
  return {
    fixture,
    php,
    url,
    async answerOf(response) {
      const text = await response.text();
      try {
        return JSON.parse(text) as PageAnswer;
      } catch {
        throw new Error(`not the page's JSON (status ${response.status}): ${text}\n${php.output()}`);
      }
    },
    async close() {
      await php.stop();
      await fixture.close();
      await dir.remove();
    },
  };
}
