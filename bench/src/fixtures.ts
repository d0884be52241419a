import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec } from '@tessera/adapter-koa';
import { Argon2PasswordHasher, cryptoRandomSource } from '@tessera/core';
import { generateOidcKeySet } from '@tessera/core/modules/oidc';
import { aRegisteredService } from '@tessera/testkit';
import { TestPki } from '@tessera/testkit/pki';

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
 * What the OIDC rows' configuration adds (its sections replace the shared ones): the login and oidc
 * modules, the issuer at the port given, the bench's client beside SERVICE's app, keys of their own
 * in the settings (no file), and codes that live ten minutes, as the STs do, so the pool minted
 * before a run is still good when it runs.
 */
export function oidcSettings(port: number): Record<string, unknown> {
  return {
    modules: [...MODULES, 'login', 'oidc'],
    server: { ...SERVER, port, publicUrl: `http://127.0.0.1:${port}` },
    services: [
      ...casServices(),
      {
        '@class': 'org.apereo.cas.services.OidcRegisteredService',
        id: 2,
        name: 'Bench RP',
        serviceId: `^${OIDC_CLIENT.redirectUri.replace(/[.]/g, '\\.')}$`,
        clientId: OIDC_CLIENT.id,
        clientSecret: OIDC_CLIENT_SECRET,
        scopes: ['java.util.HashSet', ['openid', 'profile', 'email']],
        bypassApprovalPrompt: true,
        attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
      },
    ],
    login: { key: randomBytes(32).toString('base64url') },
    oidc: { keys: JSON.stringify(generateOidcKeySet(cryptoRandomSource)), codeSeconds: 600 },
  };
}

/** What every tessera process of one run shares: a folder, the users' secrets, a PKI on disk. */
export interface Fixtures {
  /** Every file of the run lives below it; removed at the end. */
  readonly dir: string;
  /** The argon2id user's PHC string, for the raw verify rate against the same hash. */
  readonly argon2Phc: string;
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
      x509Login: new URLSearchParams({ cert: client.pem + issuing.certificate.pem }).toString(),
      settings,
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
