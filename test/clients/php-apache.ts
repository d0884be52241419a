import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APACHE, apachePreamble, MODULES } from './apache.js';
import { makeTempDir, startChildServer, type ChildServer, type Probe } from './harness.js';

// Debian's libapache2-mod-php runs PHP inside Apache, which then needs the prefork MPM.
const NEEDED_MODULES = ['mpm_prefork', 'authz_core', 'env', 'ssl', 'socache_shmcb'];

export const PHP_APACHE_PROBES: readonly Probe[] = [
  [APACHE, '-v'],
  ...NEEDED_MODULES.map((name): Probe => ['test', '-f', `${MODULES}/mod_${name}.so`]),
  ['sh', '-c', `ls ${MODULES}/libphp*.so`],
];

export interface PhpApacheOptions {
  /** A free port, chosen beforehand because the URLs registered in tessera contain it. */
  readonly port: number;
  /** The PHP scripts to serve, by the name they are served under. */
  readonly scripts: Readonly<Record<string, URL>>;
  /** The server's certificate (for 127.0.0.1) and key, PEM. */
  readonly certificatePem: string;
  readonly keyPem: string;
  /** What the scripts read with `$_SERVER` (Apache's SetEnv); DATA_DIR is added, a directory they may write to. */
  readonly env: Readonly<Record<string, string>>;
}

export interface PhpApache {
  /** `https://127.0.0.1:<port>`. */
  readonly base: string;
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** Apache with mod_php and mod_ssl on a free 127.0.0.1 port: PHP scripts over HTTPS, as a PHP application runs in production. */
export async function startPhpApache(options: PhpApacheOptions): Promise<PhpApache> {
  const dir = await makeTempDir('php-apache');
  let server: ChildServer | undefined;
  const stop = async () => {
    await server?.stop();
    await dir.remove();
  };
  try {
    const docroot = join(dir.path, 'www');
    const sessions = join(dir.path, 'sessions');
    const writable = join(dir.path, 'data');
    for (const folder of [docroot, sessions, writable]) await mkdir(folder);
    for (const [name, source] of Object.entries(options.scripts)) await writeFile(join(docroot, name), await readFile(source));
    const certificate = join(dir.path, 'server.pem');
    const key = join(dir.path, 'server.key');
    await writeFile(certificate, options.certificatePem);
    await writeFile(key, options.keyPem, { mode: 0o600 });
    // As root, Apache serves as www-data: it must read the docroot and write sessions and data.
    await chmod(dir.path, 0o755);
    await chmod(sessions, 0o777);
    await chmod(writable, 0o777);
    const php = (await readdir(MODULES)).find((name) => /^libphp[\d.]*\.so$/.test(name));
    if (php === undefined) throw new Error(`no libphp*.so in ${MODULES}`);
    const config = join(dir.path, 'httpd.conf');
    await writeFile(
      config,
      `${apachePreamble(dir.path, options.port, NEEDED_MODULES)}
LoadModule php_module ${MODULES}/${php}
StartServers 3
MinSpareServers 2
MaxSpareServers 4
MaxRequestWorkers 8
DocumentRoot ${docroot}
<Directory ${docroot}>
  Require all granted
</Directory>
SSLEngine on
SSLCertificateFile ${certificate}
SSLCertificateKeyFile ${key}
<FilesMatch "\\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
php_admin_value session.save_path ${sessions}
php_admin_value error_reporting "E_ALL & ~E_DEPRECATED"
${Object.entries({ ...options.env, DATA_DIR: writable })
  .map(([name, value]) => `SetEnv ${name} "${value}"`)
  .join('\n')}
`,
    );
    server = await startChildServer(APACHE, ['-f', config, '-DFOREGROUND'], { port: options.port, cwd: dir.path, ownProcessGroup: true });
    return { base: `https://127.0.0.1:${options.port}`, errorLog: () => readFile(join(dir.path, 'error.log'), 'utf8').catch(() => ''), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
