import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseConfig, startServer } from '@tessera/cli-server';
import { Argon2PasswordHasher } from '@tessera/core';
import { TestPki } from '@tessera/testkit/x509';
import type { Listening } from './baseline.js';

export const SERVICE = 'https://app.example.org/home';
/** A config user with a plain password: checking it is one SHA-256 compare, the cheap handler. */
export const CHEAP_LOGIN = 'username=casuser&password=Mellon';
/** A config user with an argon2id passwordHash from core's hasher: every login costs one verify. */
export const ARGON2_PASSWORD = 'argon2-secret';
export const ARGON2_LOGIN = `username=alice&password=${ARGON2_PASSWORD}`;

export interface Tessera extends Listening {
  /** Base path of every endpoint, e.g. `/cas`. */
  readonly base: string;
  /** The argon2id user's PHC string, for measuring the raw verify rate against the same hash. */
  readonly argon2Phc: string;
  /** A login form with a client certificate of the configured trust anchor in `cert` (URL-encoded PEM). */
  readonly x509Login: string;
}

/**
 * The composed server exactly as `tessera` starts it (startServer + parseConfig, memory store,
 * modules rest + tokens + x509), with log and audit lines formatted at the default level but thrown
 * away. The x509 module reads form certificates from 127.0.0.1, the load generator, against a CA made now.
 */
export async function startTessera(): Promise<Tessera> {
  const passwordHash = await new Argon2PasswordHasher().hash(ARGON2_PASSWORD);
  const pki = await x509Files();
  const config = parseConfig({
    modules: ['rest', 'tokens', 'x509'],
    x509: { sources: ['form'], trustedProxies: ['127.0.0.1', '::1'], trustAnchors: [pki.trustAnchor] },
    server: { host: '127.0.0.1', port: 0, nodeName: 'bench' },
    // Long-lived STs so that the pool minted before a validation round is still valid when it runs.
    tickets: { st: { timeToLiveSeconds: 3600 } },
    tokens: { signingKey: randomBytes(48).toString('base64url'), encryptionKey: randomBytes(32).toString('base64url') },
    users: [
      { username: 'casuser', password: 'Mellon', attributes: { mail: 'casuser@example.org', memberOf: ['staff', 'faculty'] } },
      { username: 'alice', passwordHash, attributes: { memberOf: 'students' } },
    ],
    services: [
      {
        '@class': 'org.apereo.cas.services.CasRegisteredService',
        id: 1,
        name: 'App',
        serviceId: '^https://app\\.example\\.org/.*',
        attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
      },
    ],
  });
  const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });
  const server = await startServer({ config, log: discard(), auditLog: discard() });
  const url = new URL(server.url);
  const close = async () => {
    await server.close();
    pki.remove();
  };
  return { origin: url.origin, base: url.pathname, argon2Phc: passwordHash, x509Login: pki.login, close };
}

/** A CA written to a temporary file, and a login form carrying a client certificate it issued. */
async function x509Files(): Promise<{ trustAnchor: string; login: string; remove: () => void }> {
  const root = await new TestPki().rootAuthority('CN=tessera bench CA');
  const client = await root.issue({ subject: 'CN=casuser,O=bench' });
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
  const trustAnchor = join(dir, 'ca.pem');
  writeFileSync(trustAnchor, root.certificate.pem);
  return { trustAnchor, login: new URLSearchParams({ cert: client.pem }).toString(), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
