import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OPENSSL = '/usr/bin/openssl';

export interface TlsFiles {
  readonly caFile: string;
  readonly certificateFile: string;
  readonly keyFile: string;
}

export function opensslInstalled(): boolean {
  return existsSync(OPENSSL);
}

/** A throwaway CA and a certificate for 127.0.0.1 it signed, written to `dir` (valid two days). */
export function makeTlsFiles(dir: string): TlsFiles {
  const path = (name: string) => join(dir, name);
  writeFileSync(path('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  const steps = [
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path('ca.key'), '-out', path('ca.pem'), '-days', '2', '-subj', '/CN=tessera test CA'],
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', path('server.key'), '-out', path('server.csr'), '-subj', '/CN=127.0.0.1'],
    ['x509', '-req', '-in', path('server.csr'), '-CA', path('ca.pem'), '-CAkey', path('ca.key'), '-CAcreateserial', '-out', path('server.pem'), '-days', '2', '-extfile', path('server.ext')],
  ];
  for (const args of steps) {
    const run = spawnSync(OPENSSL, args, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`);
  }
  return { caFile: path('ca.pem'), certificateFile: path('server.pem'), keyFile: path('server.key') };
}

/** slapd.conf lines serving `files` for StartTLS on ldap:// and for ldaps://. */
export function slapdTlsConfig(files: TlsFiles): string {
  return `TLSCACertificateFile ${files.caFile}\nTLSCertificateFile ${files.certificateFile}\nTLSCertificateKeyFile ${files.keyFile}\n`;
}
