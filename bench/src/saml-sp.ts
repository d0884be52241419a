import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import { Cookies, nextLoginStep } from './browser.js';
import { FORM } from './load-spec.js';

/**
 * The bench's SAML service provider, as a Shibboleth SP names itself: it sends unsigned AuthnRequests
 * over HTTP-POST and wants the assertion signed (its metadata's WantAssertionsSigned, the definition's
 * signAssertions), the Response itself unsigned; its AssertionConsumerService is never visited.
 */
export const SAML_SP = {
  entityId: 'https://sp.bench.example/shibboleth',
  acs: 'https://sp.bench.example/Shibboleth.sso/SAML2/POST',
} as const;

/** tessera's SSO endpoint over HTTP-POST, under the base path. */
export const POST_SSO_PATH = '/idp/profile/SAML2/POST/SSO';
/** Where /login sends the browser back to, under the base path, before the pending login's id. */
export const SAML_CALLBACK_PATH = '/idp/profile/SAML2/Callback/';

const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

/** The SP's metadata, made by node-saml as an SP using it publishes its own: no keys, unsigned requests, signed assertions wanted. */
export function spMetadata(): string {
  return spOf('unused: only the metadata is made').generateServiceProviderMetadata(null, null);
}

function spOf(idpCertificate: string, idpEntityId?: string): SAML {
  return new SAML({
    issuer: SAML_SP.entityId,
    callbackUrl: SAML_SP.acs,
    audience: SAML_SP.entityId,
    idpCert: idpCertificate,
    ...(idpEntityId !== undefined && { idpIssuer: idpEntityId }),
    identifierFormat: PERSISTENT,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // The bench's requests come from its pool, not from this object: the InResponseTo of each answer is checked by the load generator.
    validateInResponseTo: ValidateInResponseTo.never,
    acceptedClockSkewMs: 60_000,
  });
}

/** One AuthnRequest of the pool: its ID, and the form the SP's page posts to the SSO endpoint. */
export interface PooledAuthnRequest {
  readonly id: string;
  readonly body: string;
}

/**
 * A fresh AuthnRequest of the SP for the SSO endpoint at `destination` (absolute), issued `now`, as
 * the form an SP's page posts (SAMLRequest: base64 of the XML, RelayState). Every value in it is the
 * bench's own or made here (the ID: 160 random bits, as SAML asks), so the XML is written out whole:
 * building each through a SAML library costs about 1 ms, and a run's pool holds thousands.
 */
export function authnRequest(destination: string, now: Date = new Date()): PooledAuthnRequest {
  const id = `_${randomBytes(20).toString('hex')}`;
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}" ` +
    `Destination="${destination}" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" AssertionConsumerServiceURL="${SAML_SP.acs}">` +
    `<saml:Issuer>${SAML_SP.entityId}</saml:Issuer><samlp:NameIDPolicy Format="${PERSISTENT}" AllowCreate="true"/></samlp:AuthnRequest>`;
  return { id, body: new URLSearchParams({ SAMLRequest: Buffer.from(xml, 'utf8').toString('base64'), RelayState: 'bench' }).toString() };
}

/**
 * AuthnRequests made before they are needed, each handed out once (tessera refuses a request ID it
 * accepted before). It starts with `batch` of them; once half are taken, another batch is made on
 * the next turn of the event loop (`schedule`), so the load generator never waits for one while it
 * measures, on however fast a machine; if it ever runs out before that, it makes one on the spot.
 */
export class AuthnRequestPool {
  private items: PooledAuthnRequest[] = [];
  private next = 0;
  private toppingUp = false;
  /** Batches made after the first. */
  refills = 0;
  /** Requests taken when none was ready (made on the spot). */
  madeOnTheSpot = 0;

  constructor(
    private readonly make: () => PooledAuthnRequest,
    private readonly batch: number,
    private readonly schedule: (work: () => void) => void = setImmediate,
  ) {
    if (!Number.isInteger(batch) || batch < 2) throw new Error(`an AuthnRequest pool needs a batch of at least 2, not ${batch}`);
    this.add(batch);
  }

  /** Requests made and not taken yet. */
  get ready(): number {
    return this.items.length - this.next;
  }

  take(): PooledAuthnRequest {
    if (!this.toppingUp && this.ready <= this.batch / 2) {
      this.toppingUp = true;
      this.schedule(() => {
        this.add(this.batch);
        this.refills += 1;
        this.toppingUp = false;
      });
    }
    const item = this.items[this.next];
    if (item === undefined) {
      this.madeOnTheSpot += 1;
      return this.make();
    }
    this.next += 1;
    return item;
  }

  private add(count: number): void {
    // Drop what was taken, so a long run holds at most two batches.
    this.items = this.items.slice(this.next);
    this.next = 0;
    for (let made = 0; made < count; made++) this.items.push(this.make());
  }
}

/** The Response of one login as the page posting it to the SP carries it, or why that page is not one. */
export type LoginAnswer = { readonly samlResponse: string; readonly xml: string } | { readonly problem: string };

const FORM_ACTION = /<form method="post" action="([^"]*)">/;
const SAML_RESPONSE_FIELD = /<input type="hidden" name="SAMLResponse" value="([^"]*)">/;
const STATUS_CODE = /<(?:\w+:)?StatusCode\s+Value="([^"]*)"/;
const RESPONSE_IN_RESPONSE_TO = /<(?:\w+:)?Response\s[^>]*\bInResponseTo="([^"]*)"/;
const SIGNED_ASSERTION = /<(?:\w+:)?Assertion\s[\s\S]*<(?:\w+:)?SignatureValue>[^<]+<\/(?:\w+:)?SignatureValue>[\s\S]*<\/(?:\w+:)?Assertion>/;
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/**
 * Whether the callback's answer is the success the SP waits for: a 200 page whose form posts a
 * SAMLResponse to the SP's AssertionConsumerService, the Response's top-level status Success, in
 * response to `requestId`, with a signed Assertion. Cheap enough for every answer of a run (a few
 * string searches); the signature itself is checked on samples, by `verifiedProfile`.
 */
export function loginAnswer(status: number, body: string, requestId: string | undefined): LoginAnswer {
  if (status !== 200) return { problem: `status ${status}` };
  const action = FORM_ACTION.exec(body)?.[1];
  const encoded = SAML_RESPONSE_FIELD.exec(body)?.[1];
  if (action === undefined || encoded === undefined) return { problem: 'a 200 page without the form posting a SAMLResponse' };
  if (unescapeHtml(action) !== SAML_SP.acs) return { problem: `the form posts to ${unescapeHtml(action)}, not to the SP's AssertionConsumerService` };
  const samlResponse = unescapeHtml(encoded);
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const statusCode = STATUS_CODE.exec(xml)?.[1];
  if (statusCode !== SUCCESS) return { problem: `a Response with status ${statusCode ?? '(none)'}` };
  const inResponseTo = RESPONSE_IN_RESPONSE_TO.exec(xml)?.[1];
  if (requestId === undefined || inResponseTo !== requestId) return { problem: `a Response to ${inResponseTo ?? '(no request)'}, not to the request sent` };
  if (!SIGNED_ASSERTION.test(xml)) return { problem: 'a Response without a signed Assertion' };
  return { samlResponse, xml };
}

/** The IdP as an SP configures it from the metadata: its entity id and the certificate it signs with. */
export interface SamlIdp {
  readonly entityId: string;
  readonly certificate: string;
}

/** The entity id and first signing certificate of tessera's metadata at `metadataUrl`. */
export async function idpFromMetadata(metadataUrl: string): Promise<SamlIdp> {
  const response = await fetch(metadataUrl);
  const metadata = await response.text();
  const entityId = /<(?:\w+:)?EntityDescriptor\s[^>]*\bentityID="([^"]+)"/.exec(metadata)?.[1];
  const signing = /<(?:\w+:)?KeyDescriptor\s+use="signing"[^>]*>[\s\S]*?<(?:\w+:)?X509Certificate>([^<]+)</.exec(metadata)?.[1];
  if (response.status !== 200 || entityId === undefined || signing === undefined) throw new Error(`the IdP metadata at ${metadataUrl} names no entity id or signing certificate (${response.status})`);
  const body = signing.replace(/\s+/g, '');
  return { entityId: unescapeHtml(entityId), certificate: `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').trim()}\n-----END CERTIFICATE-----\n` };
}

/**
 * The profile node-saml makes of `samlResponse`, as the SP receives it: the assertion's signature
 * checked with the IdP metadata's certificate, its issuer, audience, recipient and times; throws
 * saying why when any fails.
 */
export async function verifiedProfile(samlResponse: string, idp: SamlIdp): Promise<Profile> {
  const { profile } = await spOf(idp.certificate, idp.entityId).validatePostResponseAsync({ SAMLResponse: samlResponse });
  if (profile === null || !profile.nameID) throw new Error('node-saml took the Response but found no user in it');
  return profile;
}

/** How many redirects and pages one login may take: SSO, /login, its form, the callback. */
const MOST_STEPS = 8;

/**
 * A browser logged in once through the SP, as a user does: the SP's AuthnRequest posted to the SSO
 * endpoint, tessera's /login form filled in as casuser, the callback's page posting the Response.
 * Returns the browser's cookies (the TGC: every later AuthnRequest of it is answered by single
 * sign-on) and that first Response.
 */
export async function openSamlSession(origin: string, base: string): Promise<{ readonly cookie: string; readonly samlResponse: string }> {
  const cookies = new Cookies();
  const request = authnRequest(`${origin}${base}${POST_SSO_PATH}`);
  let url = `${origin}${base}${POST_SSO_PATH}`;
  let init: RequestInit = { method: 'POST', headers: { ...FORM }, body: request.body };
  for (let step = 0; step < MOST_STEPS; step += 1) {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookies.header } });
    cookies.take(response);
    const body = await response.text();
    const next = nextLoginStep(url, response, body);
    if (next === undefined) {
      const answer = loginAnswer(response.status, body, request.id);
      if ('problem' in answer) throw new Error(`the SAML login stopped at ${url}: ${answer.problem}`);
      return { cookie: cookies.header, samlResponse: answer.samlResponse };
    }
    [url, init] = next;
  }
  throw new Error(`the SAML login took more than ${MOST_STEPS} steps`);
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x2F|#47);/g, (entity, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x2F': '/', '#47': '/' })[name] ?? entity);
}
