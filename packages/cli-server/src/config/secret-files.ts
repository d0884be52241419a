import { statSync } from 'node:fs';
import { moduleKeyFiles } from '../modules/index.js';
import type { Config } from './schema.js';

/** A file holding a secret the server reads at start, by the setting naming it. */
export interface SecretFile {
  readonly setting: string;
  readonly file: string;
}

/**
 * Every file of secrets the server reads at start: the TLS private key and the modules' key files.
 * The other files settings name hold certificates, CRLs or service definitions, which are not secret.
 */
export function secretFiles(config: Config): SecretFile[] {
  const { cert, key } = config.server.tls;
  const tls = cert !== undefined && key !== undefined ? [{ setting: 'server.tls.key', file: key }] : [];
  return [...tls, ...moduleKeyFiles(config).map(({ setting, file }) => ({ setting, file }))];
}

/**
 * The warning about each file that users other than its owner may read or write (mode & 0o077), by
 * its setting, path and mode, never its content. Such a file is still used: a Kubernetes secret
 * volume mounts files 0644 unless told otherwise, and refusing them would stop such deployments.
 * A file that is not there yet is no concern: it is written 0600.
 */
export function exposedSecretFileWarnings(files: readonly SecretFile[]): { readonly setting: string; readonly file: string; readonly mode: string; readonly text: string }[] {
  return files.flatMap(({ setting, file }) => {
    let mode: number;
    try {
      mode = statSync(file).mode & 0o777;
    } catch {
      return [];
    }
    if ((mode & 0o077) === 0) return [];
    const octal = mode.toString(8).padStart(4, '0');
    const text = `${setting} ${file} is open to users other than its owner (mode ${octal}): whoever can read it holds this server's keys; make it readable by tessera's user only (chmod 600; on a Kubernetes secret volume, defaultMode 0400)`;
    return [{ setting, file, mode: octal, text }];
  });
}
