import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { startBuilt, type Built } from '../support/built-server.js';
import { guardOutput } from '../support/log-canary.js';
import { baseConfig } from '../support/tessera.js';

export const JWT_APP = 'https://jwt.example.org/app';
export const OTP_SECRET = new Secret({ size: 20 }).base32;

/** The TOTP code of the current 30 s step. */
export const otpCode = () => TOTP.generate({ secret: Secret.fromBase32(OTP_SECRET), timestamp: Date.now() });

/**
 * The settings every node of the cluster shares: one Redis, standalone (a URL) or a Redis Cluster (its
 * nodes' URLs), on a key prefix of this run's own; the same token keys, every module that keeps state in the store (tokens, services, otp, throttle), casuser
 * (staff, may register services) and otpuser (password and code), and a service asking for JWT STs.
 */
export function clusterSettings(redis: string | readonly string[]): Record<string, unknown> {
  const base = baseConfig();
  const where = typeof redis === 'string' ? { url: redis } : { cluster: { nodes: redis } };
  return {
    ...base,
    modules: ['rest', 'tokens', 'services', 'otp', 'throttle'],
    logging: { level: 'info' },
    audit: { destination: 'off' },
    storage: { type: 'redis', redis: { ...where, keyPrefix: `e2e${randomBytes(4).toString('hex')}:`, commandTimeoutMs: 500, connectTimeoutMs: 2000 } },
    tokens: { signingKey: randomBytes(48).toString('base64url'), encryptionKey: randomBytes(32).toString('base64url') },
    registration: { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } },
    throttle: { failure: { threshold: 3, rangeSeconds: 60, lockSeconds: 60 } },
    users: [...(base['users'] as unknown[]), { username: 'otpuser', password: 'Otp-pass', otpSecret: OTP_SECRET, requireOtp: true }],
    services: [
      ...(base['services'] as unknown[]),
      {
        '@class': 'org.apereo.cas.services.CasRegisteredService',
        id: 10,
        name: 'JWT app',
        serviceId: '^https://jwt\\.example\\.org/.*',
        properties: { jwtAsServiceTicket: { values: ['true'] } },
      },
    ],
  };
}

/** A node: the built CLI (dist/main.js) started with a config file, as an operator runs it. */
export interface Node extends Built {
  /** Origin of /health/live and /health/ready (no admin port: the main listener's). */
  readonly origin: string;
  /** The config file it was started with. */
  readonly configFile: string;
  readonly nodeName: string;
  /** With `audit`: the audit trail's file, beside the config file. */
  readonly auditFile?: string;
}

export interface NodeOptions {
  /** Write the audit trail to a file of its own (`audit.destination`), whatever `settings` say. */
  readonly audit?: boolean;
  /** Environment variables of the process (a `NODE_OPTIONS` of its own, say). */
  readonly env?: Record<string, string>;
  /** `server` settings besides its loopback host, free port and node name (shutdownTimeoutSeconds, say). */
  readonly server?: Record<string, unknown>;
}

export async function startNode(settings: Record<string, unknown>, nodeName: string, options: NodeOptions = {}): Promise<Node> {
  const dir = mkdtempSync(join(tmpdir(), `tessera-${nodeName}-`));
  const file = join(dir, 'tessera.json');
  const auditFile = options.audit ? join(dir, 'audit.log') : undefined;
  const audit = auditFile === undefined ? {} : { audit: { destination: auditFile } };
  writeFileSync(file, JSON.stringify({ ...settings, ...audit, server: { ...options.server, host: '127.0.0.1', port: 0, nodeName } }));
  if (auditFile !== undefined) guardOutput(`audit file of ${nodeName}`, () => (existsSync(auditFile) ? readFileSync(auditFile, 'utf8') : ''));
  const built = await startBuilt(['--config', file], options.env);
  return { ...built, origin: new URL(built.url).origin, configFile: file, nodeName, ...(auditFile !== undefined && { auditFile }) };
}

/** The CAS 3 JSON validation answer: the user on success, else the failure code. */
export async function validate(base: string, ticket: string, service: string): Promise<{ status: number; user?: string | undefined; code?: string | undefined }> {
  const response = await fetch(`${base}/p3/serviceValidate?${new URLSearchParams({ service, ticket, format: 'JSON' }).toString()}`);
  const text = await response.text();
  try {
    const { serviceResponse } = JSON.parse(text) as { serviceResponse: { authenticationSuccess?: { user: string }; authenticationFailure?: { code: string } } };
    return { status: response.status, user: serviceResponse.authenticationSuccess?.user, code: serviceResponse.authenticationFailure?.code };
  } catch {
    return { status: response.status, code: text };
  }
}
