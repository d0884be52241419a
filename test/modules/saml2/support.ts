import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import { samlCredential, type SamlCredential } from '@tessera/testkit/modules/saml2';
import { Browser, formOf, headingOf, type Visit } from '../../support/browser.js';
import { startTessera, type Tessera } from '../../support/tessera.js';
import { freePort } from '../oidc/support.js';

export const SAML_SERVICE = 'org.apereo.cas.support.saml.services.SamlRegisteredService';
export const CAS = 'org.apereo.cas.services';

/** The keys of the scripted SPs of a run: one signing, one encryption key. */
export interface SpKeys {
  readonly signing: SamlCredential;
  readonly encryption: SamlCredential;
}

let made: Promise<SpKeys> | undefined;

export function spKeys(): Promise<SpKeys> {
  made ??= (async () => ({ signing: await samlCredential('CN=scripted sp'), encryption: await samlCredential('CN=scripted sp encryption') }))();
  return made;
}

/** A scripted SP's entity id and its AssertionConsumerService, by its name. */
export const spEntityId = (name: string) => `https://${name}.example.org/sp`;
export const acsOf = (name: string) => `https://${name}.example.org/sp/acs`;
export const sloOf = (name: string) => `https://${name}.example.org/sp/slo`;

/** The IdP's public base (publicUrl + basePath) and how it signs: what an SP is configured with. */
export interface Idp {
  readonly base: string;
  readonly certificate: string;
}

/** The first signing certificate of tessera's metadata, PEM. */
export async function idpOf(base: string, fetchFrom = base): Promise<Idp> {
  const metadata = await (await fetch(`${fetchFrom}/idp/metadata`)).text();
  const body = /<(?:ds:)?X509Certificate>([^<]+)<\/(?:ds:)?X509Certificate>/.exec(metadata)?.[1];
  if (body === undefined) throw new Error(`no certificate in the metadata:\n${metadata}`);
  return { base, certificate: `-----BEGIN CERTIFICATE-----\n${body.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n').trim()}\n-----END CERTIFICATE-----\n` };
}

/**
 * A strict node-saml SP named `name`: it signs its requests, wants its responses and assertions
 * signed, checks InResponseTo, the audience, Destination, Recipient and the times.
 */
export function scriptedSp(name: string, keys: SpKeys, idp: Idp, overrides: Partial<SamlConfig> = {}): SAML {
  return new SAML({
    entryPoint: `${idp.base}/idp/profile/SAML2/Redirect/SSO`,
    issuer: spEntityId(name),
    callbackUrl: acsOf(name),
    logoutUrl: `${idp.base}/idp/profile/SAML2/Redirect/SLO`,
    logoutCallbackUrl: sloOf(name),
    idpCert: idp.certificate,
    idpIssuer: `${idp.base}/idp`,
    privateKey: keys.signing.privateKey,
    publicCert: keys.signing.certificate,
    decryptionPvk: keys.encryption.privateKey,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    audience: spEntityId(name),
    validateInResponseTo: ValidateInResponseTo.always,
    identifierFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    ...overrides,
  });
}

/** The SP metadata file of a scripted SP, written to `folder`; its path. */
export function writeSpMetadata(folder: string, name: string, keys: SpKeys, singleLogoutUrl = sloOf(name)): string {
  // Only the metadata is needed: any IdP certificate does to make the SP.
  const sp = new SAML({
    issuer: spEntityId(name),
    callbackUrl: acsOf(name),
    logoutCallbackUrl: singleLogoutUrl,
    idpCert: keys.signing.certificate,
    entryPoint: 'https://unused.example.org/',
    privateKey: keys.signing.privateKey,
    decryptionPvk: keys.encryption.privateKey,
  });
  const path = join(folder, `${name}-metadata.xml`);
  writeFileSync(path, sp.generateServiceProviderMetadata(keys.encryption.certificate, keys.signing.certificate));
  return path;
}

/** A SamlRegisteredService of a scripted SP, as Apereo's files write one. */
export function spService(id: number, name: string, metadataLocation: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    '@class': SAML_SERVICE,
    id,
    name: `SP ${name}`,
    serviceId: spEntityId(name),
    metadataLocation,
    signAssertions: true,
    attributeReleasePolicy: { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['mail', 'memberOf']] },
    ...more,
  };
}

/** tessera with rest, login and saml2 (and what `modules` adds), its keys in a folder of their own, public at `publicUrl` (its own address by default). */
export async function startSaml(services: readonly Record<string, unknown>[], overrides: Record<string, unknown> = {}): Promise<Tessera> {
  const port = await freePort();
  const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-'));
  return startTessera({
    server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://127.0.0.1:${port}` },
    modules: ['rest', 'login', 'saml2'],
    services,
    login: { keyFile: join(folder, 'login-key.json') },
    saml2: { keyFile: join(folder, 'saml2-keys.json') },
    ...overrides,
  });
}

/** The Response a page posts to an SP: its form's action and fields, the XML decoded. */
export interface PostedResponse {
  readonly action: string;
  readonly SAMLResponse: string;
  readonly RelayState?: string;
  readonly xml: string;
}

export function postedResponse(page: Visit): PostedResponse | undefined {
  if (page.status !== 200 || !page.body.includes('name="SAMLResponse"')) return undefined;
  const form = formOf(page.body);
  const encoded = form.hidden['SAMLResponse']!;
  return { action: form.action, SAMLResponse: encoded, xml: Buffer.from(encoded, 'base64').toString('utf8'), ...(form.hidden['RelayState'] !== undefined && { RelayState: form.hidden['RelayState'] }) };
}

/** The top-level and second-level status codes of a Response. */
export function statusOf(xml: string): string[] {
  return [...xml.matchAll(/<samlp:StatusCode Value="([^"]+)"/g)].map((match) => match[1]!.replace('urn:oasis:names:tc:SAML:2.0:status:', ''));
}

/** Spreads a browser's requests to the public address over the nodes, in turn (a load balancer). */
export class SpreadBrowser {
  readonly browser: Browser;
  private turn = 0;

  /** `headers`: sent with every request (a proxy's X-Forwarded-For). */
  constructor(
    private readonly publicUrl: string,
    private readonly nodes: readonly Tessera[],
    headers: Readonly<Record<string, string>> = {},
  ) {
    this.browser = new Browser(headers);
  }

  private route(url: string): string {
    return url.startsWith(this.publicUrl) ? `${this.nodes[this.turn++ % this.nodes.length]!.url}${url.slice(this.publicUrl.length)}` : url;
  }

  get(url: string): Promise<Visit> {
    return this.browser.get(this.route(url));
  }

  post(url: string, fields: Readonly<Record<string, string>>): Promise<Visit> {
    return this.browser.post(this.route(url), fields);
  }

  submit(page: Visit, fields: Readonly<Record<string, string>> = {}): Promise<Visit> {
    const form = formOf(page.body);
    return this.post(new URL(form.action, this.publicUrlOf(page.url)).href, { ...form.hidden, ...fields });
  }

  /** Whether a URL is tessera's (the public address or a node's). */
  reaches(url: string): boolean {
    return url.startsWith(this.publicUrl) || this.nodes.some((node) => url.startsWith(node.url));
  }

  /** A node's URL as the public address. */
  publicUrlOf(url: string): string {
    const node = this.nodes.find((candidate) => url.startsWith(candidate.url));
    return node === undefined ? url : `${this.publicUrl}${url.slice(node.url.length)}`;
  }
}

export interface Walk {
  /** The page the walk stopped at (the Response's form, a refusal, a page it cannot fill in). */
  readonly page: Visit;
  /** The headings of the pages shown on the way. */
  readonly shown: readonly string[];
  readonly response?: PostedResponse;
}

/** Follows a browser from `visit` through tessera (login form and one-time code filled in when given) until a Response is posted or a page stops it. */
export async function walk(browser: SpreadBrowser, visit: Visit, fill: { readonly user?: readonly [string, string]; readonly otp?: () => string } = {}): Promise<Walk> {
  const shown: string[] = [];
  let page = visit;
  for (let hops = 0; hops < 12; hops++) {
    if (page.status >= 300 && page.status < 400 && page.location !== null) {
      const next = new URL(page.location, browser.publicUrlOf(page.url)).href;
      if (!browser.reaches(next)) break;
      page = await browser.get(next);
      continue;
    }
    const response = postedResponse(page);
    if (response) return { page, shown, response };
    const heading = headingOf(page.body) ?? '';
    shown.push(heading);
    if (heading === 'Log in' && fill.user !== undefined) page = await browser.submit(page, { username: fill.user[0], password: fill.user[1] });
    else if (heading === 'One-time code' && fill.otp !== undefined) page = await browser.submit(page, { otp: fill.otp() });
    else break;
  }
  return { page, shown };
}

/** How a local SingleLogoutService answers a LogoutRequest posted to it (its base64 as posted): status, headers, body. */
export type LogoutAnswering = (samlRequest: string) => Promise<{ readonly status: number; readonly headers?: Record<string, string>; readonly body?: string }>;

/** A local SingleLogoutService: every SAMLRequest posted to it, decoded; it answers as `answer` says (an empty 200 unless set). */
export async function logoutReceiver(): Promise<{ server: Server; url: string; requests: string[]; answer: LogoutAnswering | undefined }> {
  const requests: string[] = [];
  const receiver = { answer: undefined as LogoutAnswering | undefined };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const encoded = new URLSearchParams(body).get('SAMLRequest');
      if (encoded !== null) requests.push(Buffer.from(encoded, 'base64').toString('utf8'));
      const answering: ReturnType<LogoutAnswering> = receiver.answer === undefined || encoded === null ? Promise.resolve({ status: 200 }) : receiver.answer(encoded);
      answering.then(
        (answer) => response.writeHead(answer.status, answer.headers).end(answer.body),
        () => response.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(receiver, { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slo`, requests });
}
