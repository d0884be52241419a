import { randomBytes } from 'node:crypto';
import { parseConfig, startServer, type RunningServer, type StartOptions } from '@tessera/cli-server';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { capturedLines, rememberConfig } from './log-canary.js';

export const APP = 'https://app.example.org/home';

/** A demo-like configuration: casuser/Mellon (staff, faculty), alice/secret, one app releasing everything. */
export function baseConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    server: { host: '127.0.0.1', port: 0, nodeName: 'e2e' },
    users: [
      { username: 'casuser', password: 'Mellon', attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } },
      { username: 'alice', password: 'secret', attributes: { memberOf: ['students'] } },
    ],
    services: [
      {
        '@class': 'org.apereo.cas.services.CasRegisteredService',
        id: 1,
        name: 'App',
        serviceId: '^https://app\\.example\\.org/.*',
        attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
      },
      {
        '@class': 'org.apereo.cas.services.CasRegisteredService',
        id: 2,
        name: 'Staff only',
        serviceId: '^https://staff\\.example\\.org/.*',
        accessStrategy: {
          '@class': 'org.apereo.cas.services.DefaultRegisteredServiceAccessStrategy',
          requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] },
        },
      },
      {
        '@class': 'org.apereo.cas.services.CasRegisteredService',
        id: 3,
        name: 'No SSO',
        serviceId: '^https://nosso\\.example\\.org/.*',
        accessStrategy: { '@class': 'org.apereo.cas.services.DefaultRegisteredServiceAccessStrategy', ssoEnabled: false },
      },
      {
        '@class': 'org.apereo.cas.services.CasRegisteredService',
        id: 4,
        name: 'Disabled',
        serviceId: '^https://disabled\\.example\\.org/.*',
        accessStrategy: { '@class': 'org.apereo.cas.services.DefaultRegisteredServiceAccessStrategy', enabled: false },
      },
    ],
    ...overrides,
  };
}

export interface Tessera {
  readonly url: string;
  readonly server: RunningServer;
  /** Every log line the server wrote; the log canary reads them too. */
  readonly logs: string[];
  /** Every line of the audit trail, apart from the log; the log canary reads them too. */
  readonly audit: string[];
  close(): Promise<void>;
}

/** `mongoDatabase`: a fake database of the test's own for `storage.type: mongo`, to break or inspect; `clock`: one the test moves. */
export async function startTessera(overrides: Record<string, unknown> = {}, options: Pick<StartOptions, 'mongoDatabase' | 'clock'> = {}): Promise<Tessera> {
  const raw = baseConfig({ ...storageUnderTest(), ...overrides });
  rememberConfig(raw);
  const started = ++startedServers;
  const [logs, log] = capturedLines(`log of server ${started}`);
  const [audit, auditLog] = capturedLines(`audit trail of server ${started}`);
  const server = await startServer({ config: parseConfig(raw), log, auditLog, ...fakeDatabaseUnderTest(), ...options });
  return { url: server.url, server, logs, audit, close: () => server.close() };
}

let startedServers = 0;

/**
 * The storage every end-to-end test runs on, from E2E_STORAGE: `memory` (the default),
 * `mongo` (the server at MONGODB_URI, collections of their own per start), `mongo-fake` (the
 * Mongo adapter on the mingo-evaluated fake database, which needs no server) or `redis` (the server
 * at REDIS_URL, a key prefix of its own per start).
 */
function storageUnderTest(): Record<string, unknown> {
  const storage = process.env.E2E_STORAGE ?? 'memory';
  if (storage === 'memory') return {};
  if (storage === 'mongo-fake') return { storage: { type: 'mongo', mongo: { uri: 'mongodb://fake.invalid' } } };
  if (storage === 'redis') {
    const url = process.env.REDIS_URL;
    if (url === undefined || url === '') throw new Error('E2E_STORAGE=redis needs REDIS_URL');
    return { storage: { type: 'redis', redis: { url, keyPrefix: `e2e${randomBytes(4).toString('hex')}:` } } };
  }
  if (storage !== 'mongo') throw new Error(`E2E_STORAGE: expected memory, mongo, mongo-fake or redis, got ${storage}`);
  const uri = process.env.MONGODB_URI;
  if (uri === undefined || uri === '') throw new Error('E2E_STORAGE=mongo needs MONGODB_URI');
  return { storage: { type: 'mongo', mongo: { uri, database: 'tessera_e2e', collectionPrefix: `t${randomBytes(4).toString('hex')}_` } } };
}

function fakeDatabaseUnderTest(): Pick<StartOptions, 'mongoDatabase'> {
  return process.env.E2E_STORAGE === 'mongo-fake' ? { mongoDatabase: new FakeDatabase() as unknown as NonNullable<StartOptions['mongoDatabase']> } : {};
}

export function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
}

/** Logs in as casuser and returns the TGT id. */
export async function login(base: string, username = 'casuser', password = 'Mellon'): Promise<string> {
  const response = await fetch(`${base}/v1/tickets`, { ...form({ username, password }), headers: { ...form({}).headers, accept: 'text/plain' } });
  if (response.status !== 201) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return response.text();
}

export async function serviceTicket(base: string, tgt: string, service = APP): Promise<string> {
  const response = await fetch(`${base}/v1/tickets/${tgt}`, form({ service }));
  if (response.status !== 200) throw new Error(`ST grant failed: ${response.status} ${await response.text()}`);
  return response.text();
}
