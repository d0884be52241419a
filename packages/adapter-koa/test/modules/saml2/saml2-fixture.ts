import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import { BINDING, RecordSamlRequestIdStore, samlServiceProviderPolicy, type SamlKey, type SamlServiceProvider, type SamlServiceProviderPolicy } from '@tessera/core/modules/saml2';
import { MapRecordStores } from '@tessera/testkit';
import { samlCredential, type SamlCredential } from '@tessera/testkit/modules/saml2';
import { readSpMetadata, type InboundSettings, type LogoutRequestDependencies } from '@tessera/adapter-koa/modules/saml2';
import { systemClock } from '@tessera/core';

export const IDP_ID = 'https://sso.example.org/cas/idp';
export const IDP_BASE = 'https://sso.example.org/cas';
export const REDIRECT_SSO = `${IDP_BASE}/idp/profile/SAML2/Redirect/SSO`;
export const POST_SSO = `${IDP_BASE}/idp/profile/SAML2/POST/SSO`;
export const REDIRECT_SLO = `${IDP_BASE}/idp/profile/SAML2/Redirect/SLO`;
export const POST_SLO = `${IDP_BASE}/idp/profile/SAML2/POST/SLO`;
export const SP_ID = 'https://sp.example.org/node-saml';
export const ACS = 'https://sp.example.org/login/callback';
export const SP_SLO = 'https://sp.example.org/logout/callback';

export const SETTINGS: InboundSettings = {
  maxMessageBytes: 64 * 1024,
  signatureAlgorithms: ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512'],
  skewSeconds: 60,
  maxAgeSeconds: 300,
};

/** The keys of one test run: the IdP's signing and encryption keys, the SP's, and another party's. */
export interface Credentials {
  readonly idp: SamlCredential;
  readonly idpEncryption: SamlCredential;
  readonly sp: SamlCredential;
  readonly spEncryption: SamlCredential;
  readonly stranger: SamlCredential;
}

let made: Promise<Credentials> | undefined;

/** Made once per run: RSA key generation is slow enough to matter across many tests. */
export function credentials(): Promise<Credentials> {
  made ??= (async () => ({
    idp: await samlCredential('CN=tessera idp'),
    idpEncryption: await samlCredential('CN=tessera idp encryption'),
    sp: await samlCredential('CN=node-saml sp'),
    spEncryption: await samlCredential('CN=node-saml sp encryption'),
    stranger: await samlCredential('CN=stranger'),
  }))();
  return made;
}

/** A node-saml SP, a strict one: it signs its requests, wants signed responses and assertions, checks InResponseTo and the audience. */
export function scriptedSp(keys: Credentials, overrides: Partial<SamlConfig> = {}, signsRequests = true): SAML {
  return new SAML({
    entryPoint: REDIRECT_SSO,
    logoutUrl: REDIRECT_SLO,
    issuer: SP_ID,
    callbackUrl: ACS,
    logoutCallbackUrl: SP_SLO,
    idpCert: keys.idp.certificate,
    idpIssuer: IDP_ID,
    ...(signsRequests && { privateKey: keys.sp.privateKey }),
    publicCert: keys.sp.certificate,
    decryptionPvk: keys.spEncryption.privateKey,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    audience: SP_ID,
    validateInResponseTo: ValidateInResponseTo.always,
    identifierFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    ...overrides,
  });
}

/** The SP's own metadata, as node-saml publishes it, read by tessera's metadata reader. */
export function scriptedSpMetadata(sp: SAML, keys: Credentials, signed = true): string {
  return sp.generateServiceProviderMetadata(keys.spEncryption.certificate, signed ? keys.sp.certificate : null);
}

export function serviceProvider(sp: SAML, keys: Credentials, policy: Partial<SamlServiceProviderPolicy> = {}, signed = true): SamlServiceProvider {
  const metadata = readSpMetadata(scriptedSpMetadata(sp, keys, signed), { entityId: SP_ID, signatureAlgorithms: SETTINGS.signatureAlgorithms, maxBytes: 1024 * 1024, now: Date.now() });
  return { metadata, policy: samlServiceProviderPolicy(policy) };
}

/** What the inbound checks need, with a request-id store on memory records, whose contents a test can see, and the IdP's encryption keys. */
export function inboundDependencies(sp: SamlServiceProvider | undefined, now = () => Date.now(), encryptionKeys: readonly SamlKey[] = []): LogoutRequestDependencies & { readonly records: MapRecordStores } {
  const records = new MapRecordStores(systemClock);
  return {
    records,
    serviceProvider: (entityId) => Promise.resolve(entityId === sp?.metadata.entityId ? sp : undefined),
    requestIds: new RecordSamlRequestIdStore(records),
    now,
    encryptionKeys: () => Promise.resolve(encryptionKeys),
  };
}

/** The query of a URL, exactly as it is (no `?`). */
export function rawQueryOf(url: string): string {
  return url.slice(url.indexOf('?') + 1);
}

export const ANSWERED = [BINDING.post] as const;
