import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { samlCredential, type SamlCredential } from '@tessera/testkit/modules/saml2';
import { APACHE, apachePreamble, MODULES } from '../../clients/apache.js';
import { makeTempDir, startChildServer, type ChildServer, type Probe } from '../../clients/harness.js';

/** Debian's SimpleSAMLphp, served by Apache with mod_php (the prefork MPM). */
const SIMPLESAMLPHP = '/usr/share/simplesamlphp';
const NEEDED_MODULES = ['mpm_prefork', 'authz_core', 'alias', 'env', 'mime', 'dir'];

export const SIMPLESAMLPHP_PROBES: readonly Probe[] = [
  [APACHE, '-v'],
  ['test', '-f', `${SIMPLESAMLPHP}/www/saml2/idp/SSOService.php`],
  ...NEEDED_MODULES.map((name): Probe => ['test', '-f', `${MODULES}/mod_${name}.so`]),
  ['sh', '-c', `ls ${MODULES}/libphp*.so`],
];

/** A user of the IdP's exampleauth:UserPass list, with the attributes it releases. */
export interface IdpUser {
  readonly username: string;
  readonly password: string;
  readonly attributes: Readonly<Record<string, readonly string[]>>;
}

export interface SimpleSamlPhpOptions {
  /** A free port, chosen beforehand: the IdP's entity id and endpoints name it. */
  readonly port: number;
  /** The IdP's signing key and certificate. */
  readonly idp: SamlCredential;
  /**
   * tessera as the IdP knows it: its entity id, AssertionConsumerService and the certificate its
   * AuthnRequests (and LogoutRequests) are signed with; with `singleLogoutService`, where its
   * LogoutResponses go (HTTP-Redirect, signed), its LogoutRequests required signed.
   */
  readonly sp: { readonly entityId: string; readonly assertionConsumerService: string; readonly certificate: string; readonly singleLogoutService?: string };
  readonly users: readonly IdpUser[];
}

export interface SimpleSamlPhp {
  /** `http://127.0.0.1:<port>/simplesaml`. */
  readonly base: string;
  readonly entityId: string;
  /** Where the IdP publishes its metadata. */
  readonly metadataUrl: string;
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** tessera's SP key and certificate as files, for its delegation provider's `keyFile` and `certificateFile`. */
export interface TesseraSpFiles {
  readonly keyFile: string;
  readonly certificateFile: string;
}

/**
 * SimpleSAMLphp as the identity provider of tessera's delegation provider `provider`, tessera at `tessera`
 * (its URL with the base path): tessera's SP key pair made and written into `folder`, the IdP's one SP
 * naming tessera's delegation metadata, callback and logout URLs.
 */
export async function startSimpleSamlPhpFor(
  tessera: string,
  provider: string,
  options: { readonly port: number; readonly folder: string; readonly users: readonly IdpUser[] },
): Promise<{ readonly idp: SimpleSamlPhp; readonly sp: TesseraSpFiles }> {
  const credential = await samlCredential('CN=tessera as SP');
  const sp = { keyFile: join(options.folder, 'sp.key'), certificateFile: join(options.folder, 'sp.crt') };
  await writeFile(sp.keyFile, credential.privateKey, { mode: 0o600 });
  await writeFile(sp.certificateFile, credential.certificate);
  const idp = await startSimpleSamlPhp({
    port: options.port,
    idp: await samlCredential('CN=simplesamlphp idp'),
    sp: {
      entityId: `${tessera}/delegation/saml2/${provider}/metadata`,
      assertionConsumerService: `${tessera}/delegation/callback/${provider}`,
      certificate: credential.certificate,
      singleLogoutService: `${tessera}/delegation/logout`,
    },
    users: options.users,
  });
  return { idp, sp };
}

const php = (value: unknown): string => {
  if (typeof value === 'string') return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(php).join(', ')}]`;
  return `[${Object.entries(value as Record<string, unknown>)
    .map(([key, each]) => `${php(key)} => ${php(each)}`)
    .join(', ')}]`;
};
const bare = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, '');

/**
 * SimpleSAMLphp as a SAML 2 identity provider on a loopback port over plain HTTP (its address is
 * 127.0.0.1, tessera's localhost: two sites, so its Response comes back as a cross-site post), its
 * configuration written here: exampleauth's user list, the IdP signing Responses and assertions
 * (RSA-SHA256), tessera as its one SP with signed AuthnRequests required.
 */
export async function startSimpleSamlPhp(options: SimpleSamlPhpOptions): Promise<SimpleSamlPhp> {
  const dir = await makeTempDir('simplesamlphp');
  let server: ChildServer | undefined;
  const stop = async () => {
    await server?.stop();
    await dir.remove();
  };
  const base = `http://127.0.0.1:${options.port}/simplesaml`;
  const entityId = `${base}/saml2/idp/metadata.php`;
  try {
    const config = join(dir.path, 'config');
    const metadata = join(config, 'metadata');
    const certificates = join(dir.path, 'cert');
    const writable = ['data', 'tmp', 'log', 'sessions'].map((name) => join(dir.path, name));
    for (const folder of [config, metadata, certificates, ...writable]) await mkdir(folder, { recursive: true });
    const [data, temp, logs, sessions] = writable as [string, string, string, string];
    await writeFile(join(certificates, 'idp.pem'), options.idp.privateKey);
    await writeFile(join(certificates, 'idp.crt'), options.idp.certificate);
    await writeFile(
      join(config, 'config.php'),
      `<?php
$config = ${php({
        baseurlpath: `${base}/`,
        certdir: `${certificates}/`,
        loggingdir: `${logs}/`,
        datadir: `${data}/`,
        tempdir: temp,
        metadatadir: `${metadata}/`,
        technicalcontact_name: 'tessera tests',
        technicalcontact_email: 'tests@tessera.example',
        timezone: 'UTC',
        secretsalt: 'tessera-test-salt-of-this-run',
        'auth.adminpassword': 'not-used-by-the-test',
        'admin.protectindexpage': true,
        'admin.protectmetadata': false,
        'enable.saml20-idp': true,
        'enable.shib13-idp': false,
        'module.enable': { exampleauth: true, core: true, saml: true, admin: false },
        'store.type': 'phpsession',
        'session.cookie.secure': false,
        'session.cookie.samesite': 'Lax',
        'logging.handler': 'errorlog',
        'logging.level': 4,
        'language.default': 'en',
        'metadata.sources': [{ type: 'flatfile' }],
      })};
`,
    );
    // exampleauth:UserPass takes each user as a key "username:password" beside the source's class.
    const users = options.users.map((user) => `${php(`${user.username}:${user.password}`)} => ${php(user.attributes)}`).join(',\n    ');
    await writeFile(join(config, 'authsources.php'), `<?php\n$config = [\n  'admin' => ['core:AdminPassword'],\n  'example-userpass' => [\n    'exampleauth:UserPass',\n    ${users},\n  ],\n];\n`);
    await writeFile(
      join(metadata, 'saml20-idp-hosted.php'),
      `<?php
$metadata[${php(entityId)}] = ${php({
        host: '__DEFAULT__',
        privatekey: 'idp.pem',
        certificate: 'idp.crt',
        auth: 'example-userpass',
        'signature.algorithm': 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
        'saml20.sign.response': true,
        'saml20.sign.assertion': true,
      })};
`,
    );
    await writeFile(
      join(metadata, 'saml20-sp-remote.php'),
      `<?php
$metadata[${php(options.sp.entityId)}] = ${php({
        AssertionConsumerService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: options.sp.assertionConsumerService }],
        ...(options.sp.singleLogoutService !== undefined && {
          SingleLogoutService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: options.sp.singleLogoutService }],
          'validate.logout': true,
          'sign.logout': true,
        }),
        certData: bare(options.sp.certificate),
        'validate.authnrequest': true,
        'saml20.sign.response': true,
        'saml20.sign.assertion': true,
        'signature.algorithm': 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      })};
`,
    );
    // As root, Apache serves as www-data: it must read the configuration and keys, and write its data and sessions.
    await chmod(dir.path, 0o755);
    for (const folder of writable) await chmod(folder, 0o777);
    const phpModule = (await readdir(MODULES)).find((name) => /^libphp[\d.]*\.so$/.test(name));
    if (phpModule === undefined) throw new Error(`no libphp*.so in ${MODULES}`);
    const httpd = join(dir.path, 'httpd.conf');
    await writeFile(
      httpd,
      `${apachePreamble(dir.path, options.port, NEEDED_MODULES)}
LoadModule php_module ${MODULES}/${phpModule}
TypesConfig /etc/mime.types
StartServers 2
MinSpareServers 2
MaxSpareServers 4
MaxRequestWorkers 8
DocumentRoot ${SIMPLESAMLPHP}/www
Alias /simplesaml ${SIMPLESAMLPHP}/www
<Directory ${SIMPLESAMLPHP}/www>
  Require all granted
</Directory>
<FilesMatch "\\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
SetEnv SIMPLESAMLPHP_CONFIG_DIR ${config}
php_admin_value session.save_path ${sessions}
php_admin_value error_reporting "E_ALL & ~E_DEPRECATED"
php_admin_value log_errors On
`,
    );
    server = await startChildServer(APACHE, ['-f', httpd, '-DFOREGROUND'], { port: options.port, cwd: dir.path, ownProcessGroup: true });
    return { base, entityId, metadataUrl: entityId, errorLog: () => readFile(join(dir.path, 'error.log'), 'utf8').catch(() => ''), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
