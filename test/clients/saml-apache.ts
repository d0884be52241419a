import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { samlCredential } from '@tessera/testkit/modules/saml2';
import { APACHE, apachePreamble, MODULES } from './apache.js';
import { makeTempDir, runProgram, startChildServer, type ChildServer, type Probe, type TempDir } from './harness.js';

/** Debian's Shibboleth SP daemon and mod_auth_mellon's metadata tool (scripts/install-saml-sps.sh). */
const SHIBD = '/usr/sbin/shibd';
const MELLON_CREATE_METADATA = '/usr/sbin/mellon_create_metadata';
/** The Shibboleth SP's own policy files, as Debian installs them: the tests write every other file. */
const SHIBBOLETH_FILES = '/etc/shibboleth';

const COMMON_MODULES = ['mpm_event', 'authn_core', 'authz_core', 'authz_user', 'dir', 'headers', 'include'];

export const MELLON_PROBES: readonly Probe[] = [[APACHE, '-v'], ['test', '-f', `${MODULES}/mod_auth_mellon.so`], ['test', '-x', MELLON_CREATE_METADATA], ['openssl', 'version']];
export const SHIBBOLETH_PROBES: readonly Probe[] = [[APACHE, '-v'], ['test', '-f', `${MODULES}/mod_shib.so`], [SHIBD, '-v'], ['test', '-f', `${SHIBBOLETH_FILES}/protocols.xml`]];
export const SAML_SP_INSTALLER = 'scripts/install-saml-sps.sh';

/** An SP in Apache protecting `/app/`, as a test sees it. */
export interface SamlSpApache {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  readonly entityId: string;
  /** The SP's metadata, as the SP itself makes it (what an IdP is configured with). */
  readonly metadata: string;
  /** Apache's error log and, for the Shibboleth SP, shibd's output: for failure messages. */
  logs(): Promise<string>;
  stop(): Promise<void>;
}

export interface SamlSpOptions {
  readonly port: number;
  /** The IdP's metadata (tessera's), as the SP's configuration names it: a file, no network. */
  readonly idpMetadata: string;
  readonly idpEntityId: string;
  /**
   * Also `/cas-app/`, protected by mod_auth_cas with this CAS server (its HTTPS base URL and the CA file
   * that signs it), in the same Apache: single sign-on across protocols on one tessera session.
   */
  readonly cas?: { readonly casUrl: string; readonly caFile: string };
}

export const SAML_CAS_PROBES: readonly Probe[] = [['test', '-f', `${MODULES}/mod_auth_cas.so`]];

/** What each protected page shows of its user, through server-side includes of what the module set. */
function page(title: string, variables: readonly string[]): string {
  const shown = variables.map((name) => `<p id="${name}"><!--#echo var="${name}" --></p>`).join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${shown}</body></html>\n`;
}

async function prepare(prefix: string): Promise<{ dir: TempDir; docroot: string }> {
  const dir = await makeTempDir(prefix);
  const docroot = join(dir.path, 'www');
  await mkdir(join(docroot, 'app'), { recursive: true });
  // A public page the SP's logout returns to.
  await mkdir(join(docroot, 'logged-out'));
  await writeFile(join(docroot, 'logged-out', 'index.html'), page('Logged out', []));
  // As root, Apache serves as www-data: it must read the docroot, the keys and the metadata.
  await chmod(dir.path, 0o755);
  return { dir, docroot };
}

/** The modules and configuration of the `/cas-app/` location, its page and mod_auth_cas's cache written; none without `cas`. */
async function casLocation(options: SamlSpOptions, root: string, docroot: string): Promise<{ modules: string[]; logLevel: string; config: string }> {
  if (options.cas === undefined) return { modules: [], logLevel: '', config: '' };
  const cache = join(root, 'cas-cache');
  await mkdir(cache);
  await chmod(cache, 0o777);
  await mkdir(join(docroot, 'cas-app'));
  await writeFile(join(docroot, 'cas-app', 'index.html'), page('CAS app', ['REMOTE_USER']));
  return {
    modules: ['auth_cas'],
    logLevel: ' auth_cas:debug',
    config: `CASCookiePath ${cache}/
CASLoginURL ${options.cas.casUrl}/login
CASValidateURL ${options.cas.casUrl}/serviceValidate
CASCertificatePath ${options.cas.caFile}
CASVersion 2
CASSSOEnabled On
<Location /cas-app/>
  AuthType CAS
  Require valid-user
</Location>
`,
  };
}

/**
 * Apache on 127.0.0.1 with `/app/` protected by mod_auth_mellon, its endpoints under `/mellon/`.
 * The SP's key, certificate and metadata are made by Debian's `mellon_create_metadata`, as its
 * documentation has an operator do; mod_auth_mellon signs its AuthnRequests with that key.
 */
export async function startMellonApache(options: SamlSpOptions): Promise<SamlSpApache> {
  const { dir, docroot } = await prepare('mellon');
  let server: ChildServer | undefined;
  const stop = async () => {
    await server?.stop();
    await dir.remove();
  };
  try {
    const base = `http://127.0.0.1:${options.port}`;
    const entityId = `${base}/mellon/metadata`;
    const made = await runProgram(MELLON_CREATE_METADATA, [entityId, `${base}/mellon`], 60_000, dir.path);
    if (made.code !== 0) throw new Error(`mellon_create_metadata failed:\n${made.stderr}`);
    const stem = (await readdir(dir.path)).find((name) => name.endsWith('.xml'))!.replace(/\.xml$/, '');
    await chmod(join(dir.path, `${stem}.key`), 0o644);
    await writeFile(join(dir.path, 'idp-metadata.xml'), options.idpMetadata);
    await writeFile(join(docroot, 'app', 'index.html'), page('Mellon app', ['REMOTE_USER', 'MELLON_NAME_ID', 'MELLON_mail']));
    const cas = await casLocation(options, dir.path, docroot);
    const config = join(dir.path, 'httpd.conf');
    await writeFile(
      config,
      `${apachePreamble(dir.path, options.port, [...COMMON_MODULES, 'setenvif', 'auth_mellon', ...cas.modules], `warn auth_mellon:debug${cas.logLevel}`)}
DocumentRoot ${docroot}
DirectoryIndex index.html
<Directory "${docroot}">
  Options +Includes
  SetOutputFilter INCLUDES
  ForceType "text/html; charset=utf-8"
</Directory>
# Over plain http a browser refuses the SameSite=None (which needs Secure) mellon gives its cookies during
# a login; without it they come back with tessera's POST, tessera and the SP sharing the host 127.0.0.1.
SetEnvIf Request_URI ^/mellon/ MELLON_DISABLE_SAMESITE=1
<Location />
  MellonEndpointPath /mellon
  MellonSPPrivateKeyFile ${join(dir.path, `${stem}.key`)}
  MellonSPCertFile ${join(dir.path, `${stem}.cert`)}
  MellonSPMetadataFile ${join(dir.path, `${stem}.xml`)}
  MellonIdPMetadataFile ${join(dir.path, 'idp-metadata.xml')}
  MellonSecureCookie Off
</Location>
<Location /app/>
  AuthType Mellon
  MellonEnable auth
  Require valid-user
</Location>
${cas.config}`,
    );
    server = await startChildServer(APACHE, ['-f', config, '-DFOREGROUND'], { port: options.port, cwd: dir.path });
    const metadata = await readFile(join(dir.path, `${stem}.xml`), 'utf8');
    return { base, entityId, metadata, logs: () => readFile(join(dir.path, 'error.log'), 'utf8').catch(() => ''), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface ShibbolethOptions extends SamlSpOptions {
  /** A free port for shibd's listener (TCP on 127.0.0.1, so Apache's www-data reaches it without a socket's permissions). */
  readonly shibdPort: number;
}

/** log4shib to standard output, where the harness keeps it for failure messages. */
const CONSOLE_LOGGER = `log4j.rootCategory=INFO, console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{%Y-%m-%d %H:%M:%S} %p %c %x: %m%n
`;

/**
 * The attributes the SP takes from assertions, as a deployment maps them: the persistent NameID
 * (IdP!SP!value, Shibboleth's form), and mail by its OID in the URI name format, as the research and
 * education federations release it.
 */
const ATTRIBUTE_MAP = `<Attributes xmlns="urn:mace:shibboleth:2.0:attribute-map" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Attribute name="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" id="persistent-id">
    <AttributeDecoder xsi:type="NameIDAttributeDecoder" formatter="$NameQualifier!$SPNameQualifier!$Name" defaultQualifiers="true"/>
  </Attribute>
  <Attribute name="urn:oid:0.9.2342.19200300.100.1.3" id="mail"/>
</Attributes>
`;

/**
 * The Shibboleth SP: shibd from a configuration of the test's own (its listener on a TCP port, the
 * IdP's metadata a file, schema-validated as Shibboleth reads it, keys of the test's making, signed
 * AuthnRequests; its default encryption, so the NameID of its LogoutRequests is an EncryptedID for
 * the IdP's published encryption key),
 * and Apache's mod_shib with `/app/` protected and its handler at `/Shibboleth.sso`.
 * The SP's metadata is what its own MetadataGenerator handler answers.
 */
export async function startShibbolethApache(options: ShibbolethOptions): Promise<SamlSpApache> {
  const { dir, docroot } = await prepare('shibboleth');
  let shibd: ChildServer | undefined;
  let apache: ChildServer | undefined;
  const stop = async () => {
    await apache?.stop();
    await shibd?.stop();
    await dir.remove();
  };
  try {
    const base = `http://127.0.0.1:${options.port}`;
    const entityId = `${base}/shibboleth`;
    const file = (name: string) => join(dir.path, name);
    const credential = await samlCredential('CN=shibboleth sp');
    await writeFile(file('sp-key.pem'), credential.privateKey, { mode: 0o644 });
    await writeFile(file('sp-cert.pem'), credential.certificate);
    await writeFile(file('idp-metadata.xml'), options.idpMetadata);
    await writeFile(file('console.logger'), CONSOLE_LOGGER);
    await writeFile(file('attribute-map.xml'), ATTRIBUTE_MAP);
    await writeFile(
      file('shibboleth2.xml'),
      `<SPConfig xmlns="urn:mace:shibboleth:3.0:native:sp:config" xmlns:conf="urn:mace:shibboleth:3.0:native:sp:config" clockSkew="180">
  <OutOfProcess logger="${file('console.logger')}"/>
  <InProcess logger="${file('console.logger')}"/>
  <TCPListener address="127.0.0.1" port="${options.shibdPort}" acl="127.0.0.1"/>
  <ApplicationDefaults entityID="${entityId}" REMOTE_USER="persistent-id" signing="true">
    <Sessions lifetime="28800" timeout="3600" relayState="ss:mem" checkAddress="false" handlerSSL="false" cookieProps="http" redirectLimit="exact">
      <SSO entityID="${options.idpEntityId}">SAML2</SSO>
      <Logout>SAML2 Local</Logout>
      <Handler type="MetadataGenerator" Location="/Metadata" signing="false"/>
      <Handler type="Session" Location="/Session" showAttributeValues="true"/>
    </Sessions>
    <Errors supportContact="root@localhost" helpLocation="/about.html" styleSheet="/shibboleth-sp/main.css"/>
    <MetadataProvider type="XML" validate="true" path="${file('idp-metadata.xml')}"/>
    <AttributeExtractor type="XML" validate="true" reloadChanges="false" path="${file('attribute-map.xml')}"/>
    <AttributeFilter type="XML" validate="true" path="${SHIBBOLETH_FILES}/attribute-policy.xml"/>
    <CredentialResolver type="File" key="${file('sp-key.pem')}" certificate="${file('sp-cert.pem')}"/>
  </ApplicationDefaults>
  <SecurityPolicyProvider type="XML" validate="true" path="${SHIBBOLETH_FILES}/security-policy.xml"/>
  <ProtocolProvider type="XML" validate="true" reloadChanges="false" path="${SHIBBOLETH_FILES}/protocols.xml"/>
</SPConfig>
`,
    );
    shibd = await startChildServer(SHIBD, ['-f', '-F', '-c', file('shibboleth2.xml'), '-p', file('shibd.pid')], { port: options.shibdPort, cwd: dir.path, readyTimeoutMs: 30_000 });
    await writeFile(join(docroot, 'app', 'index.html'), page('Shibboleth app', ['REMOTE_USER', 'persistent-id', 'mail']));
    const cas = await casLocation(options, dir.path, docroot);
    await writeFile(
      file('httpd.conf'),
      `${apachePreamble(dir.path, options.port, [...COMMON_MODULES, ...cas.modules], `warn${cas.logLevel}`)}
LoadModule mod_shib ${MODULES}/mod_shib.so
ShibConfig ${file('shibboleth2.xml')}
DocumentRoot ${docroot}
DirectoryIndex index.html
<Directory "${docroot}">
  Options +Includes
  SetOutputFilter INCLUDES
  ForceType "text/html; charset=utf-8"
</Directory>
<Location /Shibboleth.sso>
  SetHandler shib
</Location>
<Location /app/>
  AuthType shibboleth
  ShibRequestSetting requireSession 1
  Require shib-session
</Location>
${cas.config}`,
    );
    apache = await startChildServer(APACHE, ['-f', file('httpd.conf'), '-DFOREGROUND'], { port: options.port, cwd: dir.path });
    const answer = await fetch(`${base}/Shibboleth.sso/Metadata`);
    if (answer.status !== 200) throw new Error(`the SP's metadata handler answered ${answer.status}:\n${shibd.output()}`);
    const metadata = await answer.text();
    return {
      base,
      entityId,
      metadata,
      logs: async () => `${await readFile(file('error.log'), 'utf8').catch(() => '')}\nshibd:\n${shibd?.output() ?? ''}\nmod_shib:\n${apache?.output() ?? ''}`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
