import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { cryptoRandomSource } from '@tessera/core';
import { generateTokenKeys } from '@tessera/core/modules/tokens';
import { TestPki } from '@tessera/testkit/pki';
import { rememberSecret } from '../support/log-canary.js';
import { baseConfig, startTessera, type Tessera } from '../support/tessera.js';
import { basicCredentials, rawRequests, WRONG_PASSWORD, type FuzzWorld, type RawRequest } from './requests.js';

/** Requests sent at once: the server is fuzzed under some concurrency, and a run takes less wall time. */
const BATCH = 16;
/** A request the server leaves unanswered this long counts as a hang. */
const ANSWER_DEADLINE_MS = 10_000;

export interface FuzzTarget {
  readonly tessera: Tessera;
  readonly world: FuzzWorld;
  close(): Promise<void>;
}

export interface FuzzResult {
  readonly requests: number;
  /** How many answers had each status; `closed` counts connections closed without one (CONNECT). */
  readonly statuses: ReadonlyMap<string, number>;
}

/**
 * The composed server with every module on (rest, tokens, services, otp, throttle, x509 from a form
 * field or a trusted proxy's header), and what a fuzzer needs to know to get past its first checks.
 */
export async function startFuzzTarget(): Promise<FuzzTarget> {
  const pki = new TestPki(Date.now());
  const root = await pki.rootAuthority('CN=tessera fuzz CA');
  const [trusted, stranger] = [await root.issue({ subject: 'CN=casuser,O=Fuzz' }), await pki.selfSigned({ subject: 'CN=casuser,O=Fuzz' })];
  const dir = mkdtempSync(join(tmpdir(), 'tessera-fuzz-'));
  const anchor = join(dir, 'ca.pem');
  writeFileSync(anchor, root.certificate.pem);
  const otpSecret = new Secret({ size: 20 }).base32;
  const users = [
    { username: 'casuser', password: 'Fuzz-Mellon-7', attributes: { memberOf: ['staff'] } },
    { username: 'otpuser', password: 'Fuzz-Otp-Pass-9', otpSecret, requireOtp: true },
  ];
  const services = [
    ...(baseConfig()['services'] as unknown[]),
    { '@class': 'org.apereo.cas.services.CasRegisteredService', id: 9, name: 'JWT', serviceId: '^https://jwt\\.example\\.org/.*', properties: { jwtAsServiceTicket: { values: ['true'] } } },
  ];
  const { signingKey, encryptionKey } = generateTokenKeys('A128CBC-HS256', cryptoRandomSource);
  const tessera = await startTessera({
    // The fuzzer's Host (and the suite's own) are served; any other it sends is refused, as without publicUrl.
    server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', allowedHosts: ['fuzz.example.org', '127.0.0.1'] },
    modules: ['rest', 'tokens', 'services', 'otp', 'throttle', 'x509'],
    users,
    services,
    tokens: { signingKey, encryptionKey },
    registration: { earlier: true, requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } },
    throttle: { failure: { threshold: 50, lockSeconds: 1, maxLockSeconds: 2 } },
    x509: { sources: ['form', 'header'], trustedProxies: ['127.0.0.1'], trustAnchors: [anchor] },
  });
  const tickets: string[] = [];
  const world: FuzzWorld = {
    basePath: new URL(tessera.url).pathname,
    users,
    services: ['https://app.example.org/home', 'https://staff.example.org/x', 'https://jwt.example.org/app', 'https://nosso.example.org/', 'https://disabled.example.org/'],
    certificates: [trusted.pem, stranger.pem],
    tickets: () => tickets,
    otpCode: () => {
      const code = TOTP.generate({ secret: Secret.fromBase32(otpSecret) });
      rememberSecret(code, 'an OTP code');
      return code;
    },
  };
  // The fuzzer sends its requests past the canary's helpers: it learns their secrets here.
  for (const secret of [WRONG_PASSWORD, ...basicCredentials(world)]) rememberSecret(secret, 'a password or Authorization value of the fuzzer');
  return {
    tessera,
    world,
    close: async () => {
      await tessera.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Sends `requests` generated requests, BATCH at a time over fresh connections, and fails (with
 * fast-check's counterexample, shrunk) on any 5xx, any request left unanswered, or a connection
 * closed without an answer to anything but CONNECT. The ticket ids answers hand out are used by
 * later requests.
 */
export async function fuzz(target: FuzzTarget, { requests, seed }: { requests: number; seed?: number }): Promise<FuzzResult> {
  const statuses = new Map<string, number>();
  const tickets = target.world.tickets() as string[];
  const property = fc.asyncProperty(fc.array(rawRequests(target.world), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
    const answers = await Promise.all(batch.map((request) => exchange(target.tessera.url, request)));
    answers.forEach((answer, index) => {
      const request = batch[index]!.bytes;
      // The final answer, after any 100 Continue.
      const status = /^(?:HTTP\/1\.1 1\d\d [^\r]*\r\n\r\n)*HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? (answer === '' && request.subarray(0, 8).toString() === 'CONNECT ' ? 'closed' : undefined);
      if (status === undefined || status.startsWith('5')) {
        throw new Error(`answered ${JSON.stringify(answer.slice(0, 300))} to ${JSON.stringify(request.toString('latin1').slice(0, 2000))}`);
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (tickets.length < 200) for (const [id] of answer.matchAll(/\b(?:TGT|ST)-\d+-[A-Za-z0-9-]+|eyJ[A-Za-z0-9_.-]+/g)) tickets.push(id);
    });
  });
  await fc.assert(property, { numRuns: Math.ceil(requests / BATCH), ...(seed === undefined ? {} : { seed }), endOnFailure: false });
  return { requests: Math.ceil(requests / BATCH) * BATCH, statuses };
}

/**
 * Writes the request and resolves with everything the server sent until it closed the connection
 * (every request says `Connection: close`). One announcing more body than it has is followed by the
 * end of the client's side, so the server sees it cut short at once instead of waiting its timeout.
 */
function exchange(baseUrl: string, { bytes, complete }: RawRequest): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => (complete ? socket.write(bytes) : socket.end(bytes)));
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${ANSWER_DEADLINE_MS} ms to ${JSON.stringify(bytes.toString('latin1').slice(0, 2000))}`));
    }, ANSWER_DEADLINE_MS);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    let failure = '';
    socket.on('error', (error: NodeJS.ErrnoException) => (failure = ` (${error.code ?? error.message})`));
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve(answer === '' ? failure : answer);
    });
  });
}
