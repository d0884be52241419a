import { hostname } from 'node:os';
import { z } from 'zod';
import { HOST_PATTERN, LOOPBACK_HOSTS } from '@tessera/adapter-koa';
import { defaultTicketLifetimes, sanitizeNodeName } from '@tessera/core';
import { filePath, flag, integerFrom, positiveInteger, section } from './setting-schemas.js';
import type { Users } from './users.js';

/** With `server.publicUrl` the request's host is never used, so `allowedHosts` would be ignored. */
function publicUrlProblems(server: { publicUrl?: string | undefined; allowedHosts?: readonly string[] | undefined }) {
  if (server.publicUrl === undefined || server.allowedHosts === undefined) return [];
  return [{ path: ['server', 'allowedHosts'], message: 'is not used with server.publicUrl (no request host is reflected then): remove one of them' }];
}

/** Host name up to its first dot, reduced to the characters a ticket id allows. */
function defaultNodeName(): string {
  return sanitizeNodeName(hostname().split('.')[0] ?? '') || 'tessera';
}

const server = section({
  host: z.string().min(1, { error: 'expected a host name or IP address' }).default('127.0.0.1').describe('Address to listen on; `0.0.0.0` listens on every interface.'),
  port: integerFrom(0, 65535).default(8080).describe('TCP port to listen on; 0 picks a free one.'),
  basePath: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*\/?$/, { error: 'expected a path such as /cas, or / for the root' })
    .overwrite((path) => path.replace(/\/$/, ''))
    .default('/cas')
    .describe('Path prefix of every endpoint.'),
  trustProxy: flag()
    .default(false)
    .describe('Take the client address (throttle key) from the last `X-Forwarded-For` entry and, without `publicUrl`, build absolute URLs from `X-Forwarded-Proto`/`X-Forwarded-Host` (checked against `allowedHosts`); only behind a proxy that sets them.'),
  publicUrl: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL such as https://cas.example.org' })
    .refine(
      (url) => {
        if (!URL.canParse(url)) return true; // z.url has reported it
        const { pathname, search, hash, username, password } = new URL(url);
        return pathname === '/' && search === '' && hash === '' && username === '' && password === '';
      },
      { error: 'expected scheme, host and port only, such as https://cas.example.org: server.basePath is added to it' },
    )
    .overwrite((url) => (URL.canParse(url) ? new URL(url).origin : url))
    .optional()
    .describe(
      'The URL clients reach tessera by: scheme, host and port, without the base path, e.g. `https://cas.example.org`. Every absolute URL (`Location`, the login form), the JWT `iss`/`aud` and the SAML `Issuer` are built from it and `basePath`, never from the request’s `Host` or `X-Forwarded-Host`. Set it in production.',
    ),
  allowedHosts: z
    .array(z.string({ error: 'expected a host' }).regex(HOST_PATTERN, { error: 'expected a host name or address, with an optional :port (no scheme or path)' }), {
      error: 'expected a list of hosts',
    })
    .optional()
    .meta({ defaultText: `\`${JSON.stringify(LOOPBACK_HOSTS)}\`` })
    .describe(
      'Without `publicUrl`: the hosts (`Host`, or `X-Forwarded-Host` with `trustProxy`) whose requests are answered, and reflected in absolute URLs and tokens; a name alone allows any port. Other hosts get 400. The default, the loopback names, can only ever point a client back at its own machine. Not with `publicUrl`.',
    ),
  nodeName: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,16}$/, { error: 'expected 1 to 16 letters, digits or hyphens' })
    .default(defaultNodeName)
    .meta({ defaultText: 'host name up to its first dot' })
    .describe('Suffix of ticket ids, telling the nodes of a cluster apart.'),
  maxBodyBytes: positiveInteger().default(65536).describe('Largest request body read; larger bodies get 413.'),
  shutdownTimeoutSeconds: positiveInteger(3600).default(10).describe('On stop, how long requests in flight may take before their connections are closed.'),
  timeouts: section({
    headersMs: integerFrom(1, 3_600_000)
      .default(10_000)
      .describe('How long a client may take to send the headers of a request (on HTTPS, also to complete its TLS handshake), counted from its connection or from the start of the request; past it: 408 and the connection is closed.'),
    requestMs: integerFrom(1, 3_600_000)
      .default(30_000)
      .describe('How long a client may take to send a whole request, headers and body, counted from its start; past it: 408 and the connection is closed. At least `headersMs`.'),
    keepAliveMs: integerFrom(1, 3_600_000)
      .default(5_000)
      .describe('How long a kept-alive connection may sit idle after an answer before it is closed (Node adds one second, so clients never reuse a connection being closed).'),
  })
    .superRefine((timeouts, context) => {
      if (timeouts.headersMs > timeouts.requestMs) context.addIssue({ code: 'custom', path: ['headersMs'], message: 'must not exceed server.timeouts.requestMs', input: timeouts.headersMs });
    })
    .prefault({}),
  tls: section({
    cert: filePath().optional().describe('PEM certificate (then any intermediates) of an HTTPS listener; with `key` set, the server speaks HTTPS only.'),
    key: filePath().optional().describe('PEM private key of `server.tls.cert`; a warning at start names it when group or others may read it.'),
    clientCa: filePath()
      .optional()
      .describe('PEM CA certificates the server names to clients when it asks for a client certificate, which it does with the `x509` module’s `tls` source or this set. A handshake is never refused for its certificate: the `x509` module decides.'),
  })
    .superRefine((tls, context) => {
      if ((tls.cert === undefined) !== (tls.key === undefined)) {
        context.addIssue({ code: 'custom', path: [tls.cert === undefined ? 'cert' : 'key'], message: 'set server.tls.cert and server.tls.key together', input: undefined });
      }
      if (tls.clientCa !== undefined && tls.cert === undefined) context.addIssue({ code: 'custom', path: ['clientCa'], message: 'needs server.tls.cert and server.tls.key', input: tls.clientCa });
    })
    .prefault({}),
});

const tickets = section({
  tgt: section({
    maxTimeToLiveSeconds: positiveInteger().default(defaultTicketLifetimes.tgtMaxTimeToLiveSeconds).describe('Hard limit of a login session (TGT), however active; a service’s ticketGrantingTicketExpirationPolicy sets its own for logins for it.'),
    timeToKillSeconds: positiveInteger().default(defaultTicketLifetimes.tgtTimeToKillSeconds).describe('A TGT idle this long expires; granting a service ticket resets the timer.'),
  }).prefault({}),
  st: section({
    timeToLiveSeconds: positiveInteger().default(defaultTicketLifetimes.stTimeToLiveSeconds).describe('Service ticket lifetime, unless the service’s serviceTicketExpirationPolicy sets its own; each ticket also allows one validation attempt.'),
  }).prefault({}),
});

const mongo = section({
  uri: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\/./, { error: 'expected a MongoDB connection string (mongodb://… or mongodb+srv://…)' })
    .optional()
    .describe('MongoDB connection string, e.g. `mongodb://db1,db2,db3/?replicaSet=rs0`; required with `storage.type: mongo`.'),
  database: z.string().regex(/^[^/\\. "$]{1,63}$/, { error: 'expected a database name (no / \\ . " $ or space)' }).default('tessera').describe('Database holding the collections.'),
  collectionPrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, { error: 'expected letters, digits, _ or -' })
    .default('')
    .meta({ defaultText: 'none' })
    .describe('Put before each collection name (`tickets`, `services`, `users`, `records` and the collections of modules with stores of their own: docs/storage.md lists them), so several deployments can share one database.'),
  timeoutSeconds: positiveInteger(120)
    .default(5)
    .describe('The longest one database operation may take, server selection, connection and retry included: at start (then exit 1) and in each request (then 503).'),
});

const redisUrl = (what: string) =>
  z
    .string({ error: `expected ${what}` })
    .regex(/^rediss?:\/\/[^/?#\s]+/, { error: `expected ${what}` })
    .refine(parsesAsUrl, { error: `expected ${what}` });

function parsesAsUrl(text: string): boolean {
  return URL.canParse(text);
}

const milliseconds = (fallback: number, what: string) => integerFrom(1, 600_000).default(fallback).describe(what);

const redis = section({
  url: redisUrl('a Redis URL (redis://host:6379 or rediss://… for TLS)')
    .optional()
    .describe('Standalone Redis server, e.g. `redis://:password@redis.example.org:6379` (`rediss://` for TLS); a password in it is never logged. Set this or `cluster.nodes` with `storage.type: redis`.'),
  cluster: section({
    nodes: z
      .array(redisUrl('a Redis URL (redis://host:7000)'), { error: 'expected a list of Redis URLs' })
      .min(1, { error: 'expected at least one Redis URL' })
      .describe('Instead of `url`: some nodes of a Redis Cluster (the client finds the others), e.g. `[redis://h1:7000, redis://h2:7001]`; user, password and TLS come from the first.'),
  }).optional(),
  keyPrefix: z
    .string()
    .regex(/^[^{}\s]{0,64}$/, { error: 'expected up to 64 characters without spaces, { or } (tessera adds hash tags of its own)' })
    .default('tessera:')
    .describe('Put before every key, so several deployments can share one Redis.'),
  connectTimeoutMs: milliseconds(2000, 'How long to wait for a connection: at start (then exit 1) and for each reconnection attempt.'),
  commandTimeoutMs: milliseconds(1000, 'How long a request waits for Redis to answer before it gets 503.'),
});

const storage = section({
  type: z
    .enum(['memory', 'mongo', 'redis'], { error: 'expected memory, mongo or redis' })
    .default('memory')
    .describe('Where tickets and registered services live: `memory` (one process), `mongo` or `redis` (shared by every node).'),
  memory: section({
    maxTickets: positiveInteger().default(10_000_000).describe('Most tickets held in memory; a full store refuses new logins rather than grow.'),
    sweepIntervalSeconds: positiveInteger(86400).default(60).describe('How often expired tickets and records are removed from memory.'),
  }).prefault({}),
  mongo: mongo.prefault({}),
  redis: redis.prefault({}),
}).superRefine((settings, context) => {
  if (settings.type === 'mongo' && settings.mongo.uri === undefined) {
    context.addIssue({ code: 'custom', path: ['mongo', 'uri'], message: 'required when storage.type is mongo', input: undefined });
  }
  if (settings.type === 'redis' && (settings.redis.url === undefined) === (settings.redis.cluster === undefined)) {
    const both = settings.redis.url !== undefined;
    context.addIssue({ code: 'custom', path: ['redis', both ? 'cluster' : 'url'], message: both ? 'set either storage.redis.url or storage.redis.cluster, not both' : 'required when storage.type is redis (or storage.redis.cluster.nodes)', input: undefined });
  }
});

const protocol = section({
  validationFailureStatus: z
    .literal([200, 400], { error: 'expected 200 or 400' })
    .default(400)
    .describe('HTTP status of a failed ticket validation; 200 for clients that treat any other status as a transport error.'),
});

/**
 * The central sections: what every deployment has, whichever modules are on. The root schema
 * (schema.ts) puts them together with the modules' sections; this file imports no module, so module
 * code may read their types.
 */
export const centralSections = { server, protocol, tickets, storage };

type Output<Sections extends z.ZodRawShape> = { readonly [Name in keyof Sections]: z.output<Sections[Name]> };

/** The settings of the central sections, defaults filled in. */
export type CentralSections = Output<typeof centralSections>;

/**
 * What a module may read besides its own sections (docs/adding-a-module.md §3): the listener, the
 * protocol's answers, the tickets' lifetimes and the configured users. Never another module's
 * section, never the module list, never the storage: what a module needs of another comes through
 * that module's exports.
 */
export interface CentralSettings {
  readonly server: CentralSections['server'];
  readonly protocol: CentralSections['protocol'];
  readonly tickets: CentralSections['tickets'];
  readonly users: Users;
}

export { publicUrlProblems };
