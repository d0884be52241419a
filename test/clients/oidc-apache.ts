import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APACHE, apachePreamble, MODULES } from './apache.js';
import { makeTempDir, startChildServer, type ChildServer, type Probe } from './harness.js';

const NEEDED_MODULES = ['mpm_event', 'authn_core', 'authz_core', 'authz_user', 'dir', 'headers', 'auth_cas', 'auth_openidc'];

export const OIDC_APACHE_PROBES: readonly Probe[] = [[APACHE, '-v'], ...NEEDED_MODULES.map((name): Probe => ['test', '-f', `${MODULES}/mod_${name}.so`])];

export interface OidcApacheOptions {
  /** Tessera's HTTPS base URL (`https://127.0.0.1:<port>/cas`) and the CA file that signs it. */
  readonly casUrl: string;
  readonly caFile: string;
  readonly port: number;
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface OidcApache {
  readonly base: string;
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Apache on 127.0.0.1 with `/oidc-app/` protected by mod_auth_openidc (tessera as its OpenID
 * Provider, code flow with PKCE, its redirect URI `/oidc-app/redirect_uri`) and `/cas-app/` by
 * mod_auth_cas: each page echoes the headers its module set (`OIDC_CLAIM_*`, `CAS-User`).
 */
export async function startOidcApache(options: OidcApacheOptions): Promise<OidcApache> {
  const dir = await makeTempDir('apache-oidc');
  let server: ChildServer | undefined;
  const stop = async () => {
    await server?.stop();
    await dir.remove();
  };
  try {
    const cache = join(dir.path, 'cas-cache');
    const docroot = join(dir.path, 'www');
    await mkdir(cache);
    for (const area of ['oidc-app', 'cas-app']) {
      await mkdir(join(docroot, area), { recursive: true });
      await writeFile(join(docroot, area, 'index.html'), `${area}\n`);
    }
    await chmod(dir.path, 0o755);
    await chmod(cache, 0o777);
    const config = join(dir.path, 'httpd.conf');
    await writeFile(config, apacheConfig(options, dir.path, cache, docroot));
    server = await startChildServer(APACHE, ['-f', config, '-DFOREGROUND'], { port: options.port, cwd: dir.path });
    return { base: `http://127.0.0.1:${options.port}`, errorLog: () => readFile(join(dir.path, 'error.log'), 'utf8').catch(() => ''), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function apacheConfig({ casUrl, caFile, port, clientId, clientSecret }: OidcApacheOptions, root: string, cache: string, docroot: string): string {
  return `${apachePreamble(root, port, NEEDED_MODULES, 'warn auth_openidc:debug auth_cas:debug')}
DocumentRoot ${docroot}
DirectoryIndex index.html

OIDCProviderMetadataURL ${casUrl}/oidc/.well-known/openid-configuration
OIDCCABundlePath ${caFile}
OIDCClientID ${clientId}
OIDCClientSecret ${clientSecret}
OIDCRedirectURI http://127.0.0.1:${port}/oidc-app/redirect_uri
OIDCCryptoPassphrase ${clientSecret}-passphrase
OIDCScope "openid email profile"
OIDCPKCEMethod S256
OIDCCookieSameSite Off

CASCookiePath ${cache}/
CASLoginURL ${casUrl}/login
CASValidateURL ${casUrl}/serviceValidate
CASCertificatePath ${caFile}
CASVersion 2
CASSSOEnabled On

<Location "/oidc-app/">
  AuthType openid-connect
  Require valid-user
  Header echo ^OIDC_CLAIM_
</Location>
<Location "/cas-app/">
  AuthType CAS
  Require valid-user
  CASAuthNHeader CAS-User
  Header echo ^CAS-
</Location>
`;
}
