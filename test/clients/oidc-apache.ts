import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APACHE, apachePreamble, MODULES } from './apache.js';
import { makeTempDir, startChildServer, type ChildServer, type Probe } from './harness.js';

const NEEDED_MODULES = ['mpm_event', 'authn_core', 'authz_core', 'authz_user', 'dir', 'headers', 'include', 'auth_cas', 'auth_openidc'];

/** The client secret the Apache's mod_auth_openidc is registered under at tessera. */
export const OIDC_APACHE_SECRET = 'apache-secret-of-at-least-16';

/**
 * The Apache's mod_auth_openidc as an OidcRegisteredService (client id `apache`): `redirectPaths` is
 * the serviceId's path part after the base (its redirect URI, and whatever else the test lets it
 * return to); the directory's `mail` reaches it as the `email` claim, by Apereo's email scope policy.
 */
export function oidcApacheClient(base: string, redirectPaths = 'oidc-app/redirect_uri(\\?.*)?'): Record<string, unknown> {
  return {
    '@class': 'org.apereo.cas.services.OidcRegisteredService',
    id: 50,
    name: 'Apache mod_auth_openidc',
    serviceId: `^${base.replace(/[.]/g, '\\.')}/${redirectPaths}$`,
    clientId: 'apache',
    clientSecret: OIDC_APACHE_SECRET,
    scopes: ['java.util.HashSet', ['openid', 'email', 'profile']],
    bypassApprovalPrompt: true,
    attributeReleasePolicy: { '@class': 'org.apereo.cas.oidc.claims.OidcEmailScopeAttributeReleasePolicy', claimMappings: { '@class': 'java.util.TreeMap', email: 'mail' } },
  };
}

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

/** What each application shows of its user, through server-side includes of what its module set. */
const PAGES = {
  'oidc-app': page('OIDC app', '<p id="sub"><!--#echo var="OIDC_CLAIM_sub" --></p><p id="email"><!--#echo var="OIDC_CLAIM_email" --></p>'),
  'cas-app': page('CAS app', '<p id="user"><!--#echo var="REMOTE_USER" --></p>'),
  'logged-out': page('Logged out', '<p>You have left the OIDC app.</p>'),
};

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>\n`;
}

/**
 * Apache on 127.0.0.1 with `/oidc-app/` protected by mod_auth_openidc (tessera as its OpenID
 * Provider, code flow with PKCE, its redirect URI `/oidc-app/redirect_uri`) and `/cas-app/` by
 * mod_auth_cas (`/logged-out/` is public): each page shows the user its module passed on (the `OIDC_CLAIM_*` variables,
 * `REMOTE_USER`) and echoes the headers it set (`OIDC_CLAIM_*`, `CAS-User`).
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
    for (const [area, page] of Object.entries(PAGES)) {
      await mkdir(join(docroot, area), { recursive: true });
      await writeFile(join(docroot, area, 'index.html'), page);
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

<Directory "${docroot}">
  Options +Includes
  SetOutputFilter INCLUDES
  ForceType "text/html; charset=utf-8"
</Directory>
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
