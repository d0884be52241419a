import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXTENDED_KEY_USAGE, KEY_USAGE, TestPki } from '@tessera/testkit/pki';
import { startTessera, type Tessera } from '../support/tessera.js';
import { overHttps } from '../support/https.js';
import { makeTempDir } from './harness.js';

export interface CasFixture {
  /** The running tessera (a new one after `restartTessera`). */
  readonly tessera: Tessera;
  /** Tessera's HTTPS base URL, e.g. `https://127.0.0.1:41234/cas`; the same after a restart. */
  readonly url: string;
  /** The PEM of the CA that issued tessera's certificate (for 127.0.0.1): what the clients trust. */
  readonly caFile: string;
  /** The PEM of tessera's own certificate (a browser can pin its key instead of trusting the CA). */
  readonly certFile: string;
  /** The PEM of a CA that issued nothing tessera serves: a client trusting only it must refuse to talk. */
  readonly strangerCaFile: string;
  /** Logs in as casuser over REST and has the TGT grant a service ticket for `service`, named by `parameter`. */
  ticketFor(service: string, parameter?: 'service' | 'TARGET'): Promise<string>;
  /** Stops tessera and starts a new one with the same settings and port (its ticket counter starts again). */
  restartTessera(): Promise<void>;
  close(): Promise<void>;
}

export interface CasFixtureOptions {
  /** Each URL becomes a registered service matching exactly that URL and releasing every attribute. */
  readonly serviceUrls: readonly string[];
  /** protocol.validationFailureStatus; tessera answers 400 unless told otherwise. */
  readonly validationFailureStatus?: 200 | 400;
  /** With the login module (browsers), every service opted in to back-channel single logout. */
  readonly browserLogin?: boolean;
  /**
   * With the proxy module: every service may receive PGTs at `callbackUrl`, whose certificate must
   * chain to a CA of `caFile`.
   */
  readonly proxy?: { readonly caFile: string; readonly callbackUrl: string };
  /**
   * With the login and oidc modules on a port chosen beforehand (the issuer names it): `clients` are
   * OidcRegisteredService definitions, beside the services of `serviceUrls`.
   */
  readonly oidc?: { readonly port: number; readonly clients: readonly Record<string, unknown>[] };
  /**
   * With the login and saml2 modules on a port chosen beforehand (the IdP's entity id names it; with
   * `oidc` too, the same port): `serviceProviders` are SamlRegisteredService definitions.
   */
  readonly saml2?: { readonly port: number; readonly serviceProviders: readonly Record<string, unknown>[] };
  /** More modules, and their settings sections (a module's own browser test, such as the delegation module's upstreams). */
  readonly more?: { readonly modules: readonly string[]; readonly settings: Readonly<Record<string, unknown>> };
}

/** Tessera on its own HTTPS listener (server.tls) with a certificate of a CA made for this run. */
export async function startCasFixture(options: CasFixtureOptions): Promise<CasFixture> {
  const dir = await makeTempDir('cas-tls');
  let tessera: Tessera | undefined;
  const close = async () => {
    await tessera?.close();
    await dir.remove();
  };
  try {
    const files = await writePki(dir.path);
    const { proxy } = options;
    const services = options.serviceUrls
      .map(exactService)
      .map((service) => (options.browserLogin ? { ...service, logoutType: 'BACK_CHANNEL' } : service))
      .map((service) => (proxy ? { ...service, proxyPolicy: { '@class': 'org.apereo.cas.services.RegexMatchingRegisteredServiceProxyPolicy', pattern: `^${escapeRegex(proxy.callbackUrl)}$` } } : service));
    const { oidc, saml2 } = options;
    if (oidc && saml2 && oidc.port !== saml2.port) throw new Error('oidc and saml2 name the one port of tessera');
    const publicPort = oidc?.port ?? saml2?.port;
    const browsers = options.browserLogin === true || oidc !== undefined || saml2 !== undefined;
    const modules = [...new Set([...(browsers ? ['rest', 'login'] : []), ...(proxy ? ['rest', 'proxy'] : []), ...(oidc ? ['oidc'] : []), ...(saml2 ? ['saml2'] : []), ...(options.more?.modules ?? [])])];
    const start = (port: number) =>
      startTessera({
        server: {
          host: '127.0.0.1',
          port: publicPort ?? port,
          nodeName: 'e2e',
          tls: { cert: files.cert, key: files.key },
          ...(publicPort !== undefined && { publicUrl: `https://127.0.0.1:${publicPort}` }),
        },
        services: [...services, ...(oidc?.clients ?? []), ...(saml2?.serviceProviders ?? [])],
        protocol: { validationFailureStatus: options.validationFailureStatus ?? 400 },
        ...(modules.length > 0 && { modules }),
        ...(browsers && { login: { keyFile: join(dir.path, 'login-key.json') } }),
        ...(proxy && { proxy: { callback: { caFile: proxy.caFile } } }),
        ...(oidc && { oidc: { keyFile: join(dir.path, 'oidc-keys.json') } }),
        ...(saml2 && { saml2: { keyFile: join(dir.path, 'saml2-keys.json') } }),
        ...options.more?.settings,
      });
    tessera = await start(0);
    const { url, server } = tessera;
    const ca = files.caPem;
    return {
      get tessera() {
        return tessera!;
      },
      url,
      caFile: files.ca,
      certFile: files.cert,
      strangerCaFile: files.strangerCa,
      ticketFor: async (service, parameter = 'service') => {
        const tgt = await post(`${url}/v1/tickets`, { username: 'casuser', password: 'Mellon' }, ca, 201);
        return post(`${url}/v1/tickets/${tgt}`, { [parameter]: service }, ca, 200);
      },
      // The clients were configured with this URL, so the new tessera takes the old one's port.
      restartTessera: async () => {
        await tessera?.close();
        tessera = undefined;
        tessera = await start(server.port);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

interface PkiFiles {
  readonly ca: string;
  readonly caPem: string;
  readonly strangerCa: string;
  readonly cert: string;
  readonly key: string;
}

/**
 * A root CA, tessera's server certificate for 127.0.0.1 issued by it, and an unrelated CA. The address is
 * only in the SAN: Perl's IO::Socket::SSL would also accept it as the CN, even beside a SAN naming another.
 */
async function writePki(dir: string): Promise<PkiFiles> {
  const pki = new TestPki();
  const root = await pki.rootAuthority('CN=tessera client-test CA,O=tessera');
  const stranger = await pki.rootAuthority('CN=stranger CA,O=elsewhere');
  const server = await root.issue({
    subject: 'CN=tessera client-test server,O=tessera',
    ipAddress: '127.0.0.1',
    extendedKeyUsages: [EXTENDED_KEY_USAGE.serverAuth],
    keyUsage: KEY_USAGE.digitalSignature,
  });
  const files = { ca: join(dir, 'ca.pem'), strangerCa: join(dir, 'stranger-ca.pem'), cert: join(dir, 'server.pem'), key: join(dir, 'server.key') };
  await writeFile(files.ca, root.certificate.pem);
  await writeFile(files.strangerCa, stranger.certificate.pem);
  await writeFile(files.cert, server.pem);
  await writeFile(files.key, server.privateKeyPem, { mode: 0o600 });
  // Apache, started as root, reads the CA file as www-data; the key stays readable by its owner only.
  await chmod(dir, 0o755);
  return { ...files, caPem: root.certificate.pem };
}

/** POSTs a form to tessera over HTTPS, trusting only the test CA, and returns the body of the `expected` status. */
async function post(url: string, fields: Record<string, string>, ca: string, expected: number): Promise<string> {
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' };
  const answer = await overHttps(url, { ca, headers, body: new URLSearchParams(fields).toString() });
  if (answer.status !== expected) throw new Error(`POST ${url}: ${answer.status} ${answer.body}`);
  return answer.body;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An Apereo CAS service definition for exactly this URL (serviceId is a regex over the whole URL). */
function exactService(url: string, index: number): Record<string, unknown> {
  return {
    '@class': 'org.apereo.cas.services.CasRegisteredService',
    id: index + 1,
    name: `client test service ${index + 1}`,
    serviceId: `^${escapeRegex(url)}$`,
    attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
  };
}
