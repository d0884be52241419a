import { get } from 'node:https';

export interface DownloadSettings {
  readonly timeoutMs: number;
  /** PEM CA certificates to verify servers against; Node's default CAs when absent. */
  readonly ca?: string;
}

/**
 * One HTTPS `GET` for an SP's metadata: the server's certificate verified (against `ca`, else Node's
 * default CAs) and its host name checked, redirects not followed, the whole exchange within the time
 * limit, the body read up to `maxBytes` and refused beyond. Rejects with a reason fit to log.
 */
export function httpsDownload(settings: DownloadSettings): (url: string, maxBytes: number) => Promise<string> {
  return (url, maxBytes) =>
    new Promise((resolve, reject) => {
      const signal = AbortSignal.timeout(settings.timeoutMs);
      const call = get(url, { agent: false, signal, headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' }, ...(settings.ca !== undefined && { ca: settings.ca }) }, (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.destroy();
          reject(new Error(`it answered ${status}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            response.destroy();
            reject(new Error(`it is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', () => reject(new Error(signal.aborted ? 'it took too long' : 'the connection failed')));
      });
      call.on('error', (error: NodeJS.ErrnoException) => reject(new Error(signal.aborted ? 'it took too long' : (error.code ?? 'the connection failed'))));
    });
}
