import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTENDED_KEY_USAGE, KEY_USAGE, TestPki, type IssuedCertificate, type TestAuthority } from '@tessera/testkit/pki';

const DAY = 86_400_000;

/** A PKI made for this run, its files on disk: what an operator would point tessera at. */
export interface PkiFiles {
  readonly root: TestAuthority;
  readonly alice: IssuedCertificate;
  /** CN=casuser, to pair with the password of the configured user casuser. */
  readonly casuser: IssuedCertificate;
  /** CN=mallory: a valid certificate of someone who is no configured user. */
  readonly mallory: IssuedCertificate;
  readonly expired: IssuedCertificate;
  readonly revoked: IssuedCertificate;
  readonly selfSigned: IssuedCertificate;
  readonly server: IssuedCertificate;
  /** Issued by `issuingCa`, an intermediate below `root`. */
  readonly bob: IssuedCertificate;
  readonly issuingCa: TestAuthority;
  readonly files: { readonly root: string; readonly crl: string; readonly serverCert: string; readonly serverKey: string };
  readonly dir: string;
  remove(): void;
}

export async function makePkiFiles(): Promise<PkiFiles> {
  const now = Date.now();
  const pki = new TestPki(now);
  const root = await pki.rootAuthority('CN=tessera e2e CA,O=tessera');
  const revoked = await root.issue({ subject: 'CN=revoked,O=Example' });
  const issuingCa = await root.intermediate('CN=tessera e2e issuing CA,O=tessera');
  const parts = {
    root,
    alice: await root.issue({ subject: 'CN=alice,OU=People,O=Example', email: 'alice@example.org' }),
    casuser: await root.issue({ subject: 'CN=casuser,O=Example' }),
    mallory: await root.issue({ subject: 'CN=mallory,O=Example' }),
    expired: await root.issue({ subject: 'CN=expired,O=Example', notBefore: now - 30 * DAY, notAfter: now - DAY }),
    revoked,
    issuingCa,
    bob: await issuingCa.issue({ subject: 'CN=bob,OU=People,O=Example' }),
    selfSigned: await pki.selfSigned({ subject: 'CN=alice,OU=People,O=Example' }),
    server: await root.issue({ subject: 'CN=127.0.0.1', ipAddress: '127.0.0.1', extendedKeyUsages: [EXTENDED_KEY_USAGE.serverAuth], keyUsage: KEY_USAGE.digitalSignature }),
  };
  const dir = mkdtempSync(join(tmpdir(), 'tessera-x509-'));
  const files = { root: join(dir, 'ca.pem'), crl: join(dir, 'ca.crl.pem'), serverCert: join(dir, 'server.pem'), serverKey: join(dir, 'server.key') };
  writeFileSync(files.root, root.certificate.pem);
  writeFileSync(files.crl, (await root.revocationList({ revoked: [revoked] })).pem);
  writeFileSync(files.serverCert, parts.server.pem);
  writeFileSync(files.serverKey, parts.server.privateKeyPem, { mode: 0o600 });
  return { ...parts, files, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' } as const;
