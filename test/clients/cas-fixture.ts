import { chmod, readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';
import { makeTempDir, runProgram } from './harness.js';

/** openssl makes the TLS front's certificate; AuthCAS, phpCAS and mod_auth_cas only speak HTTPS to CAS. */
export const OPENSSL_PROBE = ['openssl', 'version'] as const;

export interface CasFixture {
  /** The running tessera (a new one after `restartTessera`). */
  readonly tessera: Tessera;
  /** Tessera's base URL over plain HTTP, e.g. `http://127.0.0.1:41234/cas`. */
  readonly httpUrl: string;
  /** Tessera through a TLS front whose certificate (for 127.0.0.1) is in `caFile`; '' without `tls`. Survives restarts. */
  readonly httpsUrl: string;
  readonly caFile: string;
  /** Logs in as casuser over REST and has the TGT grant a service ticket for `service`. */
  ticketFor(service: string): Promise<string>;
  /** Stops tessera and starts a new one with the same settings (its ticket counter starts again), behind the same TLS front. */
  restartTessera(): Promise<void>;
  close(): Promise<void>;
}

export interface CasFixtureOptions {
  /** Each URL becomes a registered service matching exactly that URL and releasing every attribute. */
  readonly serviceUrls: readonly string[];
  /** protocol.validationFailureStatus; tessera answers 400 unless told otherwise. */
  readonly validationFailureStatus?: 200 | 400;
  /** Whether to start the TLS front (needs openssl); on by default. */
  readonly tls?: boolean;
}

export async function startCasFixture(options: CasFixtureOptions): Promise<CasFixture> {
  const overrides = {
    services: options.serviceUrls.map(exactService),
    protocol: { validationFailureStatus: options.validationFailureStatus ?? 400 },
  };
  const dir = await makeTempDir('cas-tls');
  let tessera: Tessera | undefined;
  let front: TlsFront | undefined;
  const close = async () => {
    await front?.close();
    await tessera?.close();
    await dir.remove();
  };
  try {
    tessera = await startTessera(overrides);
    const caFile = join(dir.path, 'cert.pem');
    if (options.tls ?? true) {
      const keyFile = join(dir.path, 'key.pem');
      await makeCertificate(keyFile, caFile);
      // Apache, started as root, reads the CA file as www-data (openssl keeps the key itself 0600).
      await chmod(dir.path, 0o755);
      front = await startTlsFront(await readFile(keyFile), await readFile(caFile), () => Number(new URL(tessera!.url).port));
    }
    const basePath = new URL(tessera.url).pathname;
    return {
      get tessera() {
        return tessera!;
      },
      get httpUrl() {
        return tessera!.url;
      },
      httpsUrl: front ? `https://127.0.0.1:${front.port}${basePath}` : '',
      caFile,
      ticketFor: async (service) => serviceTicket(tessera!.url, await login(tessera!.url), service),
      restartTessera: async () => {
        await tessera?.close();
        tessera = undefined;
        tessera = await startTessera(overrides);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** An Apereo CAS service definition for exactly this URL (serviceId is a regex over the whole URL). */
function exactService(url: string, index: number): Record<string, unknown> {
  return {
    '@class': 'org.apereo.cas.services.CasRegisteredService',
    id: index + 1,
    name: `client test service ${index + 1}`,
    serviceId: `^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
    attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
  };
}

async function makeCertificate(keyFile: string, certFile: string): Promise<void> {
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
  args.push('-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile);
  const result = await runProgram('openssl', args);
  if (result.code !== 0) throw new Error(`openssl could not make a test certificate:\n${result.stderr}`);
}

interface TlsFront {
  readonly port: number;
  close(): Promise<void>;
}

/** Terminates TLS on a free 127.0.0.1 port and pipes each connection to tessera's current plain HTTP port. */
function startTlsFront(key: Buffer, cert: Buffer, upstreamPort: () => number): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const server: TlsServer = createTlsServer({ key, cert }, (client) => {
    const upstream = connect(upstreamPort(), '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const close = () =>
        new Promise<void>((done) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => done());
        });
      resolve({ port, close });
    });
  });
}
