import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec } from '@tessera/adapter-koa';
import { Argon2PasswordHasher, cryptoRandomSource, defaultTicketLifetimes } from '@tessera/core';
import { generateOidcKeySet, STANDARD_SCOPE_CLAIMS, type OidcKeySet } from '@tessera/core/modules/oidc';
import { aRegisteredService } from '@tessera/testkit';
import { TestPki } from '@tessera/testkit/pki';
import type { OidcReferenceSettings } from './processes/oidc-reference.js';
import { SAML_SP } from './saml-sp.js';

export const SERVICE = 'https://app.example.org/home';
/** A config user with a plain password: checking it is one SHA-256 compare, the cheap handler. */
export const CHEAP_LOGIN = 'username=casuser&password=Mellon';
/** A config user with an argon2id passwordHash from core's hasher: every login costs one verify. */
export const ARGON2_PASSWORD = 'argon2-secret';
export const ARGON2_LOGIN = `username=alice&password=${ARGON2_PASSWORD}`;

const OIDC_CLIENT_SECRET = 'bench-oidc-client-secret-0123456789';

/** The OpenID Connect client of the OIDC rows: confidential (client_secret_basic); its redirect URI is never visited. */
export const OIDC_CLIENT = {
  id: 'bench',
  redirectUri: 'https://rp.bench.example/callback',
  basic: `Basic ${Buffer.from(`bench:${OIDC_CLIENT_SECRET}`).toString('base64')}`,
} as const;

/** The modules every measured tessera runs; a configuration may add its own. */
const MODULES = ['rest', 'tokens', 'x509'];
const SERVER = { host: '127.0.0.1', port: 0, nodeName: 'bench' };

/** SERVICE's app, releasing every attribute. */
function casServices(): unknown[] {
  return [serviceCodec({ releasePolicies: BUILT_IN_RELEASE_POLICY_CODECS, usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS }).render(aRegisteredService({ id: 1, name: 'App' }))];
}

/**
 * The provider's lifetimes in the OIDC rows' tessera and in their reference: tessera's defaults, but
 * codes that live ten minutes, as the STs do, so the pool minted before a run is still good when it runs.
 */
const OIDC_LIFETIMES = { accessTokenSeconds: 3600, idTokenSeconds: 3600, refreshTokenSeconds: 1_209_600, codeSeconds: 600, interactionSeconds: 1800 } as const;
/** tessera's base path (its default), under which both serve the provider at `/oidc`. */
const BASE_PATH = '/cas';

/**
 * What the OIDC rows' configuration adds (its sections replace the shared ones): the login and oidc
 * modules, the issuer at the port given, the bench's client beside SERVICE's app, the run's key set in
 * the settings (no file), and the lifetimes of OIDC_LIFETIMES.
 */
export function oidcSettings(port: number, keys: OidcKeySet): Record<string, unknown> {
  return {
    modules: [...MODULES, 'login', 'oidc'],
    server: { ...SERVER, port, publicUrl: `http://127.0.0.1:${port}`, basePath: BASE_PATH },
    services: [
      ...casServices(),
      {
        '@class': 'org.apereo.cas.services.OidcRegisteredService',
        id: 2,
        name: OIDC_CLIENT_NAME,
        serviceId: `^${OIDC_CLIENT.redirectUri.replace(/[.]/g, '\\.')}$`,
        clientId: OIDC_CLIENT.id,
        clientSecret: OIDC_CLIENT_SECRET,
        scopes: ['java.util.HashSet', OIDC_CLIENT_SCOPES],
        bypassApprovalPrompt: true,
        attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
      },
    ],
    login: { key: randomBytes(32).toString('base64url') },
    oidc: { keys: JSON.stringify(keys), ...OIDC_LIFETIMES },
  };
}

/** The SamlRegisteredService of the bench's SP (saml-sp.ts), by the metadata file the bench wrote. */
function samlService(metadataLocation: string): Record<string, unknown> {
  return {
    '@class': 'org.apereo.cas.support.saml.services.SamlRegisteredService',
    id: 3,
    name: 'Bench SP',
    serviceId: SAML_SP.entityId,
    metadataLocation,
    // The assertion signed, the Response not: one signature per login, as a Shibboleth IdP answers by default.
    signAssertions: true,
    signResponses: false,
    attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', ['mail', 'memberOf']] },
  };
}

/**
 * What the SAML row's configuration adds (its sections replace the shared ones): the login and saml2
 * modules, public at the port given, the bench's SP beside SERVICE's app, and the IdP's key set from
 * `keyFile` (which the run made with `tessera saml2 generate-keys`, in its own folder).
 */
export function samlSettings(port: number, files: { readonly keyFile: string; readonly spMetadata: string }): Record<string, unknown> {
  return {
    modules: [...MODULES, 'login', 'saml2'],
    server: { ...SERVER, port, publicUrl: `http://127.0.0.1:${port}`, basePath: BASE_PATH },
    services: [...casServices(), samlService(files.spMetadata)],
    login: { key: randomBytes(32).toString('base64url') },
    saml2: { keyFile: files.keyFile },
  };
}

const OIDC_CLIENT_NAME = 'Bench RP';
const OIDC_CLIENT_SCOPES = ['openid', 'profile', 'email'];

/**
 * The settings of the OIDC rows' reference, node-oidc-provider alone (processes/oidc-reference-main.ts),
 * mirroring what tessera makes of `oidcSettings`: the same key set and lifetimes, the scopes and claims
 * tessera serves, and the client tessera makes of the bench's registered service (a confidential client
 * of the code flow, its scopes, its redirect URI; client_credentials too, as tessera lets any client
 * that proves who it is have it). Its account is `casuser` with the claims tessera releases to the
 * client for `openid profile email` (none beyond `sub`: the standard scopes' claims come from
 * attributes of their own names, which casuser has not), logged in by password (`amr` `pwd`).
 * The bench checks, before it measures, that both answer alike (oidc-mirror.ts).
 */
export function oidcReferenceSettings(port: number, keys: OidcKeySet): OidcReferenceSettings {
  return {
    port,
    basePath: BASE_PATH,
    keys,
    client: {
      client_id: OIDC_CLIENT.id,
      client_secret: OIDC_CLIENT_SECRET,
      client_name: OIDC_CLIENT_NAME,
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'client_credentials'],
      response_types: ['code'],
      scope: OIDC_CLIENT_SCOPES.join(' '),
      redirect_uris: [OIDC_CLIENT.redirectUri],
      post_logout_redirect_uris: [OIDC_CLIENT.redirectUri],
      subject_type: 'public',
    },
    claims: { openid: ['sub', 'auth_time', 'amr', 'acr'], ...STANDARD_SCOPE_CLAIMS },
    scopes: ['openid', 'offline_access', 'oauth2', ...Object.keys(STANDARD_SCOPE_CLAIMS)],
    responseTypes: ['code', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token', 'none'],
    lifetimes: { ...OIDC_LIFETIMES, loginSessionSeconds: defaultTicketLifetimes.tgtMaxTimeToLiveSeconds, grantSeconds: 14 * 24 * 3600 },
    account: { id: 'casuser', claims: {}, amr: ['pwd'] },
  };
}

/** What every tessera process of one run shares: a folder, the users' secrets, a PKI on disk. */
export interface Fixtures {
  /** Every file of the run lives below it; removed at the end. */
  readonly dir: string;
  /** The argon2id user's PHC string, for the raw verify rate against the same hash. */
  readonly argon2Phc: string;
  /** The OpenID Provider's signing keys and cookie secrets, the same in the OIDC rows' tessera and their reference. */
  readonly oidcKeys: OidcKeySet;
  /** A login form whose `cert` field holds a client certificate and the intermediate CA that issued it. */
  readonly x509Login: string;
  /** The settings every measured tessera shares (each configuration adds its own, storage first). */
  settings(auditFile: string): Record<string, unknown>;
  remove(): void;
}

/**
 * A PKI as an operator would have it: a root CA (the trust anchor), an issuing CA below it, a
 * client certificate of the issuing CA, and a current CRL of each CA listing one revoked
 * certificate, so every X.509 login builds a two-link chain and checks it against both CRLs.
 */
export async function makeFixtures(): Promise<Fixtures> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
  try {
    const argon2Phc = await new Argon2PasswordHasher().hash(ARGON2_PASSWORD);
    const pki = new TestPki();
    const root = await pki.rootAuthority('CN=tessera bench root CA,O=bench');
    const issuing = await root.intermediate('CN=tessera bench issuing CA,O=bench');
    const client = await issuing.issue({ subject: 'CN=casuser,O=bench' });
    const files = { root: join(dir, 'root.pem'), rootCrl: join(dir, 'root.crl.pem'), issuingCrl: join(dir, 'issuing.crl.pem') };
    writeFileSync(files.root, root.certificate.pem);
    writeFileSync(files.rootCrl, (await root.revocationList({ revoked: [await root.issue({ subject: 'CN=revoked by root,O=bench' })] })).pem);
    writeFileSync(files.issuingCrl, (await issuing.revocationList({ revoked: [await issuing.issue({ subject: 'CN=revoked by issuing,O=bench' })] })).pem);
    const tokens = { signingKey: randomBytes(48).toString('base64url'), encryptionKey: randomBytes(32).toString('base64url') };
    const settings = (auditFile: string): Record<string, unknown> => ({
      modules: MODULES,
      server: SERVER,
      // STs that live ten minutes, so the pool minted before a validation run is still valid when it runs,
      // while the unvalidated ones of the grant row are swept during the run.
      tickets: { st: { timeToLiveSeconds: 600 } },
      tokens,
      x509: { sources: ['form'], trustedProxies: ['127.0.0.1', '::1'], trustAnchors: [files.root], maxPathLength: 2, crl: { files: [files.rootCrl, files.issuingCrl] } },
      audit: { destination: auditFile },
      users: [
        { username: 'casuser', password: 'Mellon', attributes: { mail: 'casuser@example.org', memberOf: ['staff', 'faculty'] } },
        { username: 'alice', passwordHash: argon2Phc, attributes: { memberOf: 'students' } },
      ],
      services: casServices(),
    });
    return {
      dir,
      argon2Phc,
      oidcKeys: generateOidcKeySet(cryptoRandomSource),
      x509Login: new URLSearchParams({ cert: client.pem + issuing.certificate.pem }).toString(),
      settings,
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
