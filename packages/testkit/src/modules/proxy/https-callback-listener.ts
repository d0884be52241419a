import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { EXTENDED_KEY_USAGE, KEY_USAGE, type TestAuthority } from '../../pki/test-pki.js';

/** How the listener answers: a status, after a delay. */
export interface CallbackAnswer {
  readonly status: number;
  readonly delayMs?: number;
  /** Set with a 3xx status. */
  readonly location?: string;
}

/**
 * An HTTPS endpoint on 127.0.0.1 standing in for a CAS proxy's pgtUrl callback: a server certificate
 * issued by `authority` (for `certificateAddress`, 127.0.0.1 unless told otherwise), every request's URL
 * kept in `received`, each answered as `answer` says.
 */
export class HttpsCallbackListener {
  readonly received: URL[] = [];
  answer: CallbackAnswer = { status: 200 };
  private port = 0;

  private constructor(private readonly server: Server) {}

  static async start(authority: TestAuthority, options: { readonly certificateAddress?: string } = {}): Promise<HttpsCallbackListener> {
    const certificate = await authority.issue({
      subject: 'CN=proxy callback,O=tessera tests',
      ipAddress: options.certificateAddress ?? '127.0.0.1',
      extendedKeyUsages: [EXTENDED_KEY_USAGE.serverAuth],
      keyUsage: KEY_USAGE.digitalSignature,
    });
    const server = createServer({ cert: certificate.pem, key: certificate.privateKeyPem });
    const listener = new HttpsCallbackListener(server);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      listener.received.push(new URL(request.url ?? '/', 'https://127.0.0.1'));
      const { status, delayMs, location } = listener.answer;
      setTimeout(() => {
        if (location !== undefined) response.setHeader('Location', location);
        response.writeHead(status, { 'Content-Type': 'text/plain' }).end('callback\n');
      }, delayMs ?? 0).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    listener.port = (server.address() as AddressInfo).port;
    return listener;
  }

  /** `https://127.0.0.1:<port><path>`. */
  url(path = '/pgtCallback'): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
