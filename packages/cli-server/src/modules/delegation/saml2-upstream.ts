import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { generateServiceProviderMetadata, SAML, SamlStatusError, ValidateInResponseTo, type CacheProvider, type Profile, type SamlConfig } from '@node-saml/node-saml';
import type { Clock } from '@tessera/core';
import { UpstreamFailure, type PostedForm, type UpstreamIdentity, type UpstreamProvider, type UpstreamSecrets, type UpstreamSession } from '@tessera/core/modules/delegation';
import type { UpstreamProviderSettings } from './config.js';
import { readIdpMetadata, type IdpMetadata } from './saml2-metadata.js';

type Saml2Settings = NonNullable<UpstreamProviderSettings['saml2']>;

/** How long read metadata serves before it is read again, in milliseconds. */
const METADATA_MS = 3600 * 1000;
/** The largest metadata document read from a URL. */
const METADATA_MAX_BYTES = 1024 * 1024;

/**
 * An upstream SAML 2 identity provider (Web Browser SSO) on node-saml: the browser goes to its single
 * sign-on service with an AuthnRequest over HTTP-Redirect (signed when set so), the login's state as
 * RelayState, the request's ID made of the login's nonce; its Response comes back posted (HTTP-POST)
 * and is taken only when it, or its assertion, is signed with a certificate of the identity
 * provider's metadata, is for tessera's entity id (audience), within its validity, from the
 * configured issuer, and in response to this very login's request (InResponseTo; unsolicited
 * Responses are refused). The NameID is the user's id, the assertion's attributes (by Name) the
 * user's attributes; the NameID, its format and the SessionIndex are kept for a later single logout.
 *
 * Its single logout (`logout`): a LogoutRequest over HTTP-Redirect to the SingleLogoutService of the
 * identity provider's metadata, signed with tessera's key, naming the kept NameID and SessionIndex, the
 * logout's state as RelayState and the request's ID made of it; the LogoutResponse comes back to
 * tessera's SingleLogoutService (published in its metadata, HTTP-POST; HTTP-Redirect taken as well)
 * and confirms the logout only when signed by the identity provider (the Response, or the redirect's
 * query), from its entity id, in response to that very request, and a success.
 *
 * Times are judged by node-saml on the machine's clock (it takes no other); tessera's Clock bounds
 * how long the login may stay upstream, through its state.
 */
export class Saml2Upstream implements UpstreamProvider {
  readonly answersBy = 'post' as const;
  private readonly key: string | undefined;
  private readonly certificate: string | undefined;
  private loaded: { readonly metadata: Promise<IdpMetadata>; readonly at: number } | undefined;

  constructor(
    readonly id: string,
    private readonly settings: Saml2Settings,
    /** tessera's entity id at this identity provider. */
    readonly entityId: string,
    private readonly timeoutSeconds: number,
    private readonly clock: Clock,
    /** The provider's `logout`: its single logout is used, and published in tessera's metadata. */
    private readonly logout = false,
  ) {
    this.key = settings.keyFile === undefined ? undefined : readPem(settings.keyFile, `delegation provider ${id}: saml2.keyFile`);
    this.certificate = settings.certificateFile === undefined ? undefined : readPem(settings.certificateFile, `delegation provider ${id}: saml2.certificateFile`);
    // Metadata in a file is checked at startup for the logout it is asked for; metadata at a URL at the first logout.
    if (logout && !/^https?:\/\//i.test(settings.metadata)) {
      const metadata = readIdpMetadata(readPem(settings.metadata, `delegation provider ${id}: saml2.metadata`), settings.idpEntityId);
      if (metadata.singleLogoutUrl === undefined) throw new Error(`delegation provider ${id}: logout: the metadata of ${settings.idpEntityId} has no SingleLogoutService over HTTP-Redirect`);
    }
  }

  async authorizationUrl(secrets: UpstreamSecrets, callbackUrl: string): Promise<string> {
    const saml = this.saml(await this.metadata(), callbackUrl, `_${secrets.nonce}`, this.settings.signAuthnRequests);
    return saml.getAuthorizeUrlAsync(secrets.state, undefined, {});
  }

  /**
   * The identity provider's single logout: a signed LogoutRequest over HTTP-Redirect naming the login's
   * NameID (format, qualifiers) and SessionIndex, the state as RelayState. Throws when the identity
   * provider's metadata has no SingleLogoutService (reported; tessera's logout stands).
   */
  async logoutUrl(session: UpstreamSession, returnUrl: string, state: string): Promise<string> {
    const metadata = await this.metadata();
    if (metadata.singleLogoutUrl === undefined) throw new Error(`the metadata of ${this.settings.idpEntityId} has no SingleLogoutService over HTTP-Redirect`);
    const nameId = session['nameId'];
    if (nameId === undefined) throw new Error('the login kept no NameID for the logout');
    const saml = this.saml(metadata, returnUrl, logoutRequestId(state), true);
    const user = {
      issuer: this.settings.idpEntityId,
      nameID: nameId,
      nameIDFormat: session['nameIdFormat'] ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      ...(session['nameQualifier'] !== undefined && { nameQualifier: session['nameQualifier'] }),
      ...(session['spNameQualifier'] !== undefined && { spNameQualifier: session['spNameQualifier'] }),
      ...(session['sessionIndex'] !== undefined && { sessionIndex: session['sessionIndex'] }),
    };
    return saml.getLogoutUrlAsync(user, state, {});
  }

  /**
   * The LogoutResponse the browser came back with: posted (`form`) or in the query (HTTP-Redirect,
   * whose signature is over the query). It must be signed by the identity provider, name its entity id
   * as Issuer, answer the request that left with `state`, and say Success.
   */
  async confirmLogout(answer: URL, state: string, returnUrl: string, form?: PostedForm): Promise<void> {
    const metadata = await this.metadata();
    const requestId = logoutRequestId(state);
    // node-saml looks for InResponseTo on a Response only (a posted LogoutResponse would be missing it): checked below.
    const saml = this.saml(metadata, returnUrl, requestId, false, ValidateInResponseTo.ifPresent);
    let xml: string;
    try {
      if (form !== undefined) {
        const encoded = form['SAMLResponse'] ?? '';
        if (encoded === '') throw new Error('the identity provider posted no SAMLResponse');
        // Takes a LogoutResponse only with a valid signature over the whole message.
        const { loggedOut } = await saml.validatePostResponseAsync({ SAMLResponse: encoded });
        if (!loggedOut) throw new Error('the answer is not a LogoutResponse');
        xml = Buffer.from(encoded, 'base64').toString('utf8');
      } else {
        const { container, query } = signedRedirectQuery(answer.search.slice(1));
        await saml.validateRedirectAsync(container, query);
        xml = inflateRawSync(Buffer.from(container.SAMLResponse, 'base64'), { maxOutputLength: 1024 * 1024 }).toString('utf8');
      }
    } catch (failure) {
      throw new UpstreamFailure('invalid', (failure instanceof Error ? failure.message : String(failure)).slice(0, 200));
    }
    checkLogoutResponse(xml, requestId, this.settings.idpEntityId, returnUrl);
  }

  async identify(_callback: URL, secrets: UpstreamSecrets, callbackUrl: string, form?: PostedForm): Promise<UpstreamIdentity> {
    const response = form?.['SAMLResponse'] ?? '';
    if (response === '') throw new UpstreamFailure('refused', 'the identity provider posted no SAMLResponse');
    const saml = this.saml(await this.metadata(), callbackUrl, `_${secrets.nonce}`, this.settings.signAuthnRequests);
    let profile: Profile | null;
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: response }));
    } catch (failure) {
      if (failure instanceof SamlStatusError) throw new UpstreamFailure('refused', failure.message.slice(0, 200));
      throw new UpstreamFailure('invalid', (failure instanceof Error ? failure.message : String(failure)).slice(0, 200));
    }
    if (profile === null) throw new UpstreamFailure('refused', 'the identity provider logged no one in (NoPassive)');
    if (profile.issuer !== this.settings.idpEntityId) throw new UpstreamFailure('invalid', `the assertion’s issuer is ${String(profile.issuer).slice(0, 100)}, not ${this.settings.idpEntityId}`);
    const attributes: Record<string, string[]> = {};
    for (const [name, value] of Object.entries((profile.attributes ?? {}) as Record<string, unknown>)) {
      const values = [value].flat().filter((each) => ['string', 'number', 'boolean'].includes(typeof each)).map(String);
      if (values.length > 0) attributes[name] = values;
    }
    const session = {
      nameId: profile.nameID,
      ...(profile.nameIDFormat !== undefined && { nameIdFormat: profile.nameIDFormat }),
      ...(typeof profile.nameQualifier === 'string' && { nameQualifier: profile.nameQualifier }),
      ...(typeof profile.spNameQualifier === 'string' && { spNameQualifier: profile.spNameQualifier }),
      ...(typeof profile.sessionIndex === 'string' && { sessionIndex: profile.sessionIndex }),
    };
    return { id: profile.nameID, attributes, session };
  }

  serviceProviderMetadata(callbackUrl: string, logoutReturnUrl: string): string {
    return generateServiceProviderMetadata({
      issuer: this.entityId,
      callbackUrl,
      ...(this.logout && { logoutCallbackUrl: logoutReturnUrl }),
      identifierFormat: this.settings.nameIdFormat ?? null,
      wantAssertionsSigned: this.settings.wantAssertionsSigned,
      ...(this.key !== undefined && this.certificate !== undefined && { decryptionPvk: this.key, decryptionCert: this.certificate }),
      ...(this.settings.signAuthnRequests && this.key !== undefined && this.certificate !== undefined && { privateKey: this.key, publicCerts: this.certificate, signatureAlgorithm: 'sha256' as const }),
    });
  }

  /**
   * node-saml for one login or logout: its request's ID is `requestId` (a login's: `_` and its nonce),
   * and the only request an answer may answer is that one (the state, taken once, makes it single use);
   * requests are signed when `sign` and tessera has a key.
   */
  private saml(metadata: IdpMetadata, callbackUrl: string, requestId: string, sign: boolean, inResponseTo = ValidateInResponseTo.always): SAML {
    const thisRequestOnly: CacheProvider = {
      saveAsync: (key, value) => Promise.resolve({ value, createdAt: this.clock.now() }),
      // node-saml also checks the request's age on the machine's clock: tessera's state expiry bounds it instead.
      getAsync: (key) => Promise.resolve(key === requestId ? new Date().toISOString() : null),
      removeAsync: (key) => Promise.resolve(key),
    };
    const config: SamlConfig = {
      entryPoint: metadata.singleSignOnUrl,
      ...(metadata.singleLogoutUrl !== undefined && { logoutUrl: metadata.singleLogoutUrl }),
      idpIssuer: this.settings.idpEntityId,
      issuer: this.entityId,
      audience: this.entityId,
      callbackUrl,
      idpCert: [...metadata.signingCertificates],
      wantAssertionsSigned: this.settings.wantAssertionsSigned,
      wantAuthnResponseSigned: this.settings.wantResponseSigned,
      acceptedClockSkewMs: this.settings.clockSkewSeconds * 1000,
      identifierFormat: this.settings.nameIdFormat ?? null,
      disableRequestedAuthnContext: true,
      validateInResponseTo: inResponseTo,
      generateUniqueId: () => requestId,
      cacheProvider: thisRequestOnly,
      ...(this.key !== undefined && { decryptionPvk: this.key }),
      ...(sign && this.key !== undefined && { privateKey: this.key, signatureAlgorithm: 'sha256' as const }),
    };
    return new SAML(config);
  }

  /** The identity provider's metadata, read at the first login and again after METADATA_MS or a failure. */
  private metadata(): Promise<IdpMetadata> {
    const now = this.clock.now();
    if (this.loaded === undefined || now - this.loaded.at >= METADATA_MS) {
      const metadata = this.read().catch((failure: unknown) => {
        this.loaded = undefined;
        throw new UpstreamFailure('unavailable', `the identity provider’s metadata: ${(failure instanceof Error ? failure.message : String(failure)).slice(0, 200)}`);
      });
      this.loaded = { metadata, at: now };
    }
    return this.loaded.metadata;
  }

  private async read(): Promise<IdpMetadata> {
    const location = this.settings.metadata;
    if (!/^https?:\/\//i.test(location)) return readIdpMetadata(await readFile(location, 'utf8'), this.settings.idpEntityId);
    const response = await fetch(location, { signal: AbortSignal.timeout(this.timeoutSeconds * 1000), redirect: 'error', headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' } });
    if (response.status !== 200) throw new Error(`${location} answered ${response.status}`);
    // Read up to the limit, and no further, whatever the answer declares.
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    for (let read = await reader?.read(); read !== undefined && !read.done; read = await reader?.read()) {
      size += read.value.length;
      if (size > METADATA_MAX_BYTES) {
        await reader?.cancel();
        throw new Error(`${location} is larger than ${METADATA_MAX_BYTES} bytes`);
      }
      chunks.push(read.value);
    }
    return readIdpMetadata(Buffer.concat(chunks).toString('utf8'), this.settings.idpEntityId);
  }
}

/** A logout's request ID: `_` and a digest of its state (the state itself travels as RelayState). */
function logoutRequestId(state: string): string {
  return `_${createHash('sha256').update(state).digest('hex')}`;
}

type RedirectContainer = { SAMLResponse: string; RelayState?: string; SigAlg: string; Signature: string };

/**
 * An HTTP-Redirect answer's query, strictly: each of SAMLResponse, RelayState, SigAlg and Signature at
 * most once, a signature required (node-saml takes an unsigned one), and the signed string made of
 * exactly those fields in the binding's order, as the identity provider signed them.
 */
function signedRedirectQuery(raw: string): { container: RedirectContainer; query: string } {
  const fields = new Map<string, string>();
  for (const token of raw.split('&')) {
    const name = decodeURIComponent(token.split('=')[0] ?? '');
    if (!['SAMLResponse', 'RelayState', 'SigAlg', 'Signature'].includes(name)) continue;
    if (fields.has(name)) throw new Error(`the answer gives ${name} twice`);
    fields.set(name, token);
  }
  const value = (name: string) => {
    const token = fields.get(name);
    return token === undefined ? undefined : decodeURIComponent(token.slice(token.indexOf('=') + 1).replaceAll('+', ' '));
  };
  const response = value('SAMLResponse');
  const sigAlg = value('SigAlg');
  const signature = value('Signature');
  const relayState = value('RelayState');
  if (response === undefined || response === '') throw new Error('the identity provider sent no SAMLResponse');
  if (sigAlg === undefined || signature === undefined) throw new Error('the LogoutResponse is not signed');
  const query = ['SAMLResponse', 'RelayState', 'SigAlg', 'Signature'].flatMap((name) => fields.get(name) ?? []).join('&');
  return { container: { SAMLResponse: response, ...(relayState !== undefined && { RelayState: relayState }), SigAlg: sigAlg, Signature: signature }, query };
}

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';

/**
 * A verified LogoutResponse's own word: from `issuer`, in response to `requestId`, a success (node-saml
 * checks these only when present), and, when it names a Destination, sent to tessera's `returnUrl`
 * (one the identity provider signed for another service provider is not this one's).
 */
function checkLogoutResponse(xml: string, requestId: string, issuer: string, returnUrl: string): void {
  const refuse = (detail: string): never => {
    throw new UpstreamFailure('invalid', detail.slice(0, 200));
  };
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) refuse('the LogoutResponse holds a DOCTYPE');
  const root = new DOMParser({ errorHandler: { warning: () => undefined, error: refuse, fatalError: refuse } }).parseFromString(xml, 'text/xml').documentElement as Element | null;
  if (root?.namespaceURI !== PROTOCOL || root.localName !== 'LogoutResponse') return refuse('the answer is not a LogoutResponse');
  const children = Array.from(root.childNodes as ArrayLike<Node>).filter((node): node is Element => node.nodeType === 1);
  const inResponseTo = root.getAttribute('InResponseTo') ?? '';
  if (inResponseTo !== requestId) refuse(`the LogoutResponse answers ${inResponseTo === '' ? 'no request' : 'another request'}`);
  if (root.hasAttribute('Destination') && root.getAttribute('Destination') !== returnUrl) refuse('the LogoutResponse is sent to another service provider');
  const from = children.find((each) => each.namespaceURI === ASSERTION && each.localName === 'Issuer')?.textContent?.trim();
  if (from !== issuer) refuse(`the LogoutResponse is from ${String(from).slice(0, 100)}, not ${issuer}`);
  const status = children.find((each) => each.namespaceURI === PROTOCOL && each.localName === 'Status');
  const code = status === undefined ? undefined : Array.from(status.childNodes as ArrayLike<Node>).find((node): node is Element => node.nodeType === 1 && (node as Element).localName === 'StatusCode')?.getAttribute('Value');
  if (code !== 'urn:oasis:names:tc:SAML:2.0:status:Success') refuse(`the identity provider answered ${String(code).slice(0, 100)}`);
}

function readPem(file: string, setting: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (failure) {
    throw new Error(`${setting}: cannot read ${file}: ${(failure as Error).message}`, { cause: failure });
  }
}
