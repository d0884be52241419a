import type { RedisOptions } from 'ioredis';
import { StoreUnavailableError } from '@tessera/core';
import { redisDriver } from './driver.js';
import { defineScripts, type RedisClient } from './scripts.js';

/** Where Redis is and how long to wait for it: `storage.redis` of the configuration. */
export interface RedisSettings {
  /** `redis://` or `rediss://` (TLS) URL of a standalone server; a password may be in it. */
  readonly url?: string | undefined;
  /** Instead of `url`: some nodes of a Redis Cluster, as URLs; the client finds the others. */
  readonly clusterNodes?: readonly string[] | undefined;
  /** How long to wait for a connection: at start for the first one, then for each reconnection attempt. */
  readonly connectTimeoutMs: number;
  /** How long a command may wait for its answer before the request gets 503. */
  readonly commandTimeoutMs: number;
}

/** Told when the connection is lost and when it is back, once each (requests in between answer 503). */
export interface RedisConnectionEvents {
  lost(reason: string): void;
  restored(): void;
}

export interface RedisConnection {
  readonly client: RedisClient;
  /** The server or the cluster's nodes, passwords masked: fit for a log line. */
  readonly target: string;
  /** Why Redis could not be reached at start, when `keepTrying` let the connection be made without it; `restored` says when it is. */
  readonly unreachable?: string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /**
   * Where Redis cannot be reached within `connectTimeoutMs` at start: resolve anyway, with `unreachable`
   * saying why, and go on trying as after a lost connection (commands fail at once meanwhile), instead
   * of failing. A refusal (an error reply, such as a wrong password) still fails.
   */
  readonly keepTrying?: boolean;
}

/** Never longer than this between two reconnection attempts, so service resumes soon after Redis does. */
const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * Connects to a standalone Redis or a cluster, and waits until it answers, at most `connectTimeoutMs`:
 * an unreachable Redis fails the start with StoreUnavailableError (or, with `keepTrying`, is tried
 * again until it answers); an error reply (refused credentials) is rethrown as it is. Afterwards the
 * client reconnects by itself for as long as it runs. Commands never wait for a connection: while there
 * is none they fail at once (no offline queue), and a command sent fails after `commandTimeoutMs`, its
 * connection then dropped and made anew if nothing came back on it.
 */
export async function connectRedis(settings: RedisSettings, events?: RedisConnectionEvents, options: ConnectOptions = {}): Promise<RedisConnection> {
  const { client, target } = createClient(settings);
  defineScripts(client);
  let stopReporting = () => {};
  const close = async (): Promise<void> => {
    stopReporting();
    await client.quit().catch(() => undefined);
    client.disconnect();
  };
  try {
    await untilReady(client, settings.connectTimeoutMs, target);
  } catch (error) {
    if (options.keepTrying && error instanceof StoreUnavailableError) {
      stopReporting = reportConnectionChanges(client, events, false);
      return { client, target, unreachable: error.message, close };
    }
    await close();
    throw error;
  }
  stopReporting = reportConnectionChanges(client, events, true);
  return { client, target, close };
}

function createClient(settings: RedisSettings): { client: RedisClient; target: string } {
  const retry = (attempt: number) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS);
  const common = {
    lazyConnect: true,
    connectTimeout: settings.connectTimeoutMs,
    commandTimeout: settings.commandTimeoutMs,
    // A server that goes silent mid-command: drop the connection after this long and make a new one.
    socketTimeout: settings.commandTimeoutMs,
    // A command the server may or may not have run is failed (503), never sent again.
    autoResendUnfulfilledCommands: false,
  } satisfies RedisOptions;
  const { Redis, Cluster } = redisDriver();
  if (settings.url !== undefined) {
    return { client: new Redis(settings.url, { ...common, enableOfflineQueue: false, retryStrategy: retry }), target: maskPassword(settings.url) };
  }
  const nodes = settings.clusterNodes ?? [];
  const first = new URL(nodes[0] ?? 'redis://127.0.0.1:6379');
  const client = new Cluster(
    nodes.map((node) => {
      const { hostname, port } = new URL(node);
      return { host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) };
    }),
    {
      lazyConnect: true,
      enableOfflineQueue: false,
      clusterRetryStrategy: retry,
      slotsRefreshTimeout: settings.connectTimeoutMs,
      redisOptions: {
        ...common,
        ...(first.username && { username: decodeURIComponent(first.username) }),
        ...(first.password && { password: decodeURIComponent(first.password) }),
        ...(first.protocol === 'rediss:' && { tls: {} }),
      },
    },
  );
  return { client, target: `cluster ${nodes.map(maskPassword).join(', ')}` };
}

function untilReady(client: RedisClient, timeoutMs: number, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let lastError: Error | undefined;
    const finish = (error?: Error) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('error', onError);
      client.off('node error', onError);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => finish();
    const onError = (error: Error) => {
      lastError = error;
      // The server answered, and said no (wrong password, an ACL): waiting longer changes nothing.
      if (error.name === 'ReplyError') finish(error);
    };
    const timer = setTimeout(() => {
      const reason = lastError ? `: ${lastError.message}` : '';
      finish(new StoreUnavailableError(`cannot reach Redis (${target}) within ${timeoutMs} ms${reason}`, { cause: lastError }));
    }, timeoutMs);
    client.on('ready', onReady);
    client.on('error', onError);
    client.on('node error', onError);
    // A failed attempt is reported as an 'error' event and tried again until the deadline.
    client.connect().catch(() => undefined);
  });
}

/**
 * Keeps an 'error' listener for good (without one, an error event would end the process) and reports
 * each change once, until the returned function is called (a deliberate close is no loss).
 * `connected`: whether Redis answers now (not yet, after a start that kept trying: its first answer is `restored`).
 */
function reportConnectionChanges(client: RedisClient, events: RedisConnectionEvents | undefined, connected: boolean): () => void {
  let reporting = true;
  const lost = (reason: string) => {
    if (!connected || !reporting) return;
    connected = false;
    events?.lost(reason);
  };
  client.on('error', (error: Error) => lost(error.message));
  client.on('node error', (error: Error) => lost(error.message));
  client.on('close', () => lost('connection closed'));
  client.on('ready', () => {
    if (connected || !reporting) return;
    connected = true;
    events?.restored();
  });
  return () => {
    reporting = false;
  };
}

/** `redis://user:secret@host:6379` → `redis://user:***@host:6379`: the URL as a log line may show it. */
export function maskPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}
