import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, startChildServer, type ChildServer, type Probe } from './harness.js';

// Debian's layout (apache2 + libapache2-mod-auth-cas); the server runs from its own config, not /etc/apache2.
export const APACHE = '/usr/sbin/apache2';
export const MODULES = '/usr/lib/apache2/modules';
const NEEDED_MODULES = ['mpm_event', 'authn_core', 'authz_core', 'authz_user', 'dir', 'headers', 'auth_cas'];

export const APACHE_PROBES: readonly Probe[] = [[APACHE, '-v'], ...NEEDED_MODULES.map((name): Probe => ['test', '-f', `${MODULES}/mod_${name}.so`])];

export interface CasApacheOptions {
  /** Tessera's HTTPS base URL and the CA file that signs it. */
  readonly casUrl: string;
  readonly caFile: string;
  /** A free port, chosen beforehand because the service URLs registered in tessera contain it. */
  readonly port: number;
}

export interface CasApache {
  /** `http://127.0.0.1:<port>`; mod_auth_cas builds service URLs from this ServerName. */
  readonly base: string;
  /** mod_auth_cas's error log (auth_cas at debug level), for failure messages. */
  errorLog(): Promise<string>;
  /** How many service tickets mod_auth_cas has mapped to sessions (its `.<hash>` files, CASSSOEnabled). */
  ticketMapEntries(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Apache on a free 127.0.0.1 port with `/app/` and `/other/` protected by mod_auth_cas (CAS 2
 * /serviceValidate). Each answers with the request headers mod_auth_cas set (`CAS-User`, `CAS-<attribute>`)
 * echoed into the response, so a test can see whom the module authenticated.
 */
export async function startCasApache(options: CasApacheOptions): Promise<CasApache> {
  const dir = await makeTempDir('apache');
  let server: ChildServer | undefined;
  const stop = async () => {
    await server?.stop();
    await dir.remove();
  };
  try {
    const { port } = options;
    const cache = join(dir.path, 'cas-cache');
    const docroot = join(dir.path, 'www');
    await mkdir(cache);
    for (const area of ['app', 'other']) {
      await mkdir(join(docroot, area), { recursive: true });
      await writeFile(join(docroot, area, 'index.html'), `${area}\n`);
    }
    // As root, Apache serves as www-data: it must read the docroot and write mod_auth_cas's cache.
    await chmod(dir.path, 0o755);
    await chmod(cache, 0o777);
    const config = join(dir.path, 'httpd.conf');
    await writeFile(config, apacheConfig({ ...options, root: dir.path, port, cache, docroot }));
    server = await startChildServer(APACHE, ['-f', config, '-DFOREGROUND'], { port, cwd: dir.path });
    return {
      base: `http://127.0.0.1:${port}`,
      errorLog: () => readFile(join(dir.path, 'error.log'), 'utf8').catch(() => ''),
      ticketMapEntries: async () => (await readdir(cache)).filter((name) => name.startsWith('.') && name !== '.metadata').length,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface ConfigValues extends CasApacheOptions {
  readonly root: string;
  readonly cache: string;
  readonly docroot: string;
}

/**
 * What every test Apache's configuration starts with: its own root, run-time directory and pid file, one
 * listener on 127.0.0.1, the user it serves as when started as root, the modules of MODULES and the error log.
 */
export function apachePreamble(root: string, port: number, modules: readonly string[], logLevel = 'warn'): string {
  const asRoot = process.getuid?.() === 0;
  return `ServerRoot ${root}
DefaultRuntimeDir ${root}
PidFile ${root}/httpd.pid
Listen 127.0.0.1:${port}
ServerName 127.0.0.1:${port}
${asRoot ? 'User www-data\nGroup www-data' : ''}
${modules.map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`).join('\n')}
ErrorLog ${root}/error.log
LogLevel ${logLevel}`;
}

function apacheConfig({ root, port, cache, docroot, casUrl, caFile }: ConfigValues): string {
  return `${apachePreamble(root, port, NEEDED_MODULES, 'warn auth_cas:debug')}
DocumentRoot ${docroot}
DirectoryIndex index.html

CASCookiePath ${cache}/
CASLoginURL ${casUrl}/login
CASValidateURL ${casUrl}/serviceValidate
CASCertificatePath ${caFile}
CASVersion 2
CASDebug On
CASSSOEnabled On

<LocationMatch "^/(app|other)/">
  AuthType CAS
  Require valid-user
  CASAuthNHeader CAS-User
  Header echo ^CAS-
</LocationMatch>
`;
}
