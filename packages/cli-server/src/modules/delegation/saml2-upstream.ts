import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { generateServiceProviderMetadata, SAML, SamlStatusError, ValidateInResponseTo, type CacheProvider, type Profile, type SamlConfig } from '@node-saml/node-saml';
import type { Clock } from '@tessera/core';
import { UpstreamFailure, type PostedForm, type UpstreamIdentity, type UpstreamProvider, type UpstreamSecrets } from '@tessera/core/modules/delegation';
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
  ) {
    this.key = settings.keyFile === undefined ? undefined : readPem(settings.keyFile, `delegation provider ${id}: saml2.keyFile`);
    this.certificate = settings.certificateFile === undefined ? undefined : readPem(settings.certificateFile, `delegation provider ${id}: saml2.certificateFile`);
  }

  async authorizationUrl(secrets: UpstreamSecrets, callbackUrl: string): Promise<string> {
    const saml = this.saml(await this.metadata(), callbackUrl, secrets);
    return saml.getAuthorizeUrlAsync(secrets.state, undefined, {});
  }

  async identify(_callback: URL, secrets: UpstreamSecrets, callbackUrl: string, form?: PostedForm): Promise<UpstreamIdentity> {
    const response = form?.['SAMLResponse'] ?? '';
    if (response === '') throw new UpstreamFailure('refused', 'the identity provider posted no SAMLResponse');
    const saml = this.saml(await this.metadata(), callbackUrl, secrets);
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

  serviceProviderMetadata(callbackUrl: string): string {
    return generateServiceProviderMetadata({
      issuer: this.entityId,
      callbackUrl,
      identifierFormat: this.settings.nameIdFormat ?? null,
      wantAssertionsSigned: this.settings.wantAssertionsSigned,
      ...(this.key !== undefined && this.certificate !== undefined && { decryptionPvk: this.key, decryptionCert: this.certificate }),
      ...(this.settings.signAuthnRequests && this.key !== undefined && this.certificate !== undefined && { privateKey: this.key, publicCerts: this.certificate, signatureAlgorithm: 'sha256' as const }),
    });
  }

  /**
   * node-saml for one login: its AuthnRequest's ID is `_` and the login's nonce, and the only request
   * a Response may answer is that one (the login's state, taken once, makes it single use).
   */
  private saml(metadata: IdpMetadata, callbackUrl: string, secrets: UpstreamSecrets): SAML {
    const requestId = `_${secrets.nonce}`;
    const thisRequestOnly: CacheProvider = {
      saveAsync: (key, value) => Promise.resolve({ value, createdAt: this.clock.now() }),
      // node-saml also checks the request's age on the machine's clock: tessera's state expiry bounds it instead.
      getAsync: (key) => Promise.resolve(key === requestId ? new Date().toISOString() : null),
      removeAsync: (key) => Promise.resolve(key),
    };
    const config: SamlConfig = {
      entryPoint: metadata.singleSignOnUrl,
      issuer: this.entityId,
      audience: this.entityId,
      callbackUrl,
      idpCert: [...metadata.signingCertificates],
      wantAssertionsSigned: this.settings.wantAssertionsSigned,
      wantAuthnResponseSigned: this.settings.wantResponseSigned,
      acceptedClockSkewMs: this.settings.clockSkewSeconds * 1000,
      identifierFormat: this.settings.nameIdFormat ?? null,
      disableRequestedAuthnContext: true,
      validateInResponseTo: ValidateInResponseTo.always,
      generateUniqueId: () => requestId,
      cacheProvider: thisRequestOnly,
      ...(this.key !== undefined && { decryptionPvk: this.key }),
      ...(this.settings.signAuthnRequests && this.key !== undefined && { privateKey: this.key, signatureAlgorithm: 'sha256' as const }),
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

function readPem(file: string, setting: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (failure) {
    throw new Error(`${setting}: cannot read ${file}: ${(failure as Error).message}`, { cause: failure });
  }
}
