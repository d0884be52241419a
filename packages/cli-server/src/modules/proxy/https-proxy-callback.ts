import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:https';
import { proxyCallbackUrl, type ProxyCallback, type ProxyCallbackOutcome, type ProxyCallbackRequest } from '@tessera/core/modules/proxy';
import { configurationError } from '../../config/errors.js';

export interface ProxyCallbackSettings {
  readonly timeoutMs: number;
  /** PEM CA certificates to verify callbacks against; Node's default CAs when absent. */
  readonly ca?: string;
}

/**
 * A proxy callback over HTTPS (CAS protocol 3.0 §2.5.4): one `GET`, its certificate verified (against
 * `ca`, else Node's default CAs) and its host name checked, the whole exchange within `timeoutMs`,
 * redirects not followed, a fresh connection each time. Delivered on a 200 answer only; the body is not
 * read. The PGT is in the URL, so nothing here ever reports the URL or Node's error text.
 */
export class HttpsProxyCallback implements ProxyCallback {
  constructor(private readonly settings: ProxyCallbackSettings) {}

  deliver(request: ProxyCallbackRequest): Promise<ProxyCallbackOutcome> {
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    return new Promise((resolve) => {
      const call = get(proxyCallbackUrl(request), { agent: false, signal, ...(this.settings.ca !== undefined && { ca: this.settings.ca }) }, (response) => {
        const status = response.statusCode ?? 0;
        response.destroy();
        resolve(status === 200 ? { delivered: true } : { delivered: false, reason: 'status', status });
      });
      call.on('error', (error: NodeJS.ErrnoException) => {
        resolve({ delivered: false, reason: signal.aborted ? 'timeout' : isCertificateProblem(error) ? 'certificate' : 'unreachable' });
      });
    });
  }
}

/** OpenSSL's verification codes (Node reports them as `code`), and Node's own host name check. */
function isCertificateProblem(error: NodeJS.ErrnoException): boolean {
  const code = error.code ?? '';
  return code.includes('CERT') || code.startsWith('UNABLE_TO_') || code === 'HOSTNAME_MISMATCH' || code === 'INVALID_CA' || code === 'PATH_LENGTH_EXCEEDED' || code === 'INVALID_PURPOSE';
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** `proxy.callback.caFile`, read at start: a file that cannot be read, or holds no readable certificate, stops it. */
export function readCaBundle(file: string): string {
  const setting = 'proxy.callback.caFile';
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw configurationError([{ setting, problem: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw configurationError([{ setting, problem: `${file} holds no PEM certificate` }]);
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch {
      throw configurationError([{ setting, problem: `${file}: certificate ${index + 1} cannot be read` }]);
    }
  });
  return blocks.join('\n');
}
