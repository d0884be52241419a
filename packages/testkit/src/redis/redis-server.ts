import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild, untilServing } from '../child-process.js';
import { freePort } from '../ports.js';

const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';

/** Installed by scripts/install-redis.sh (Debian's redis-server, which brings redis-cli). */
export function redisInstalled(): boolean {
  return existsSync(REDIS_SERVER) && existsSync(REDIS_CLI);
}

export interface RedisServerOptions {
  /** `requirepass`: clients must give this password. */
  readonly password?: string;
  /** Keep the data across stop() and start(): an append-only file, synced at every write. */
  readonly persistent?: boolean;
  /** One node of a Redis Cluster (`cluster-enabled yes`), made into one by RedisCluster. */
  readonly clusterNode?: boolean;
  /** `cluster-node-timeout` of a cluster node: how long a silent master takes to be failed over (2000 by default). */
  readonly clusterNodeTimeoutMs?: number;
}

/**
 * A real redis-server on a free loopback port, in a temp dir of its own, never a system service.
 * stop() and start() keep the port (and with `persistent`, the data), to test an outage and the
 * recovery after it. dispose() stops it and removes the dir.
 */
export class RedisServer {
  private process: ChildProcess | undefined;
  private output = '';

  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly options: RedisServerOptions,
  ) {}

  static async launch(options: RedisServerOptions = {}): Promise<RedisServer> {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-redis-'));
    const server = new RedisServer(dir, await freePort({ withBusPort: options.clusterNode === true }), options);
    try {
      await server.start();
      return server;
    } catch (error) {
      await server.dispose();
      throw error;
    }
  }

  /** `redis://[:password@]127.0.0.1:<port>`. */
  get url(): string {
    const credentials = this.options.password === undefined ? '' : `:${encodeURIComponent(this.options.password)}@`;
    return `redis://${credentials}127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null;
  }

  async start(): Promise<void> {
    const { password, persistent, clusterNode, clusterNodeTimeoutMs = 2000 } = this.options;
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--daemonize', 'no', '--logfile', ''];
    args.push('--appendonly', persistent ? 'yes' : 'no', ...(persistent ? ['--appendfsync', 'always'] : []));
    if (password !== undefined) args.push('--requirepass', password);
    if (clusterNode) args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(this.dir, 'nodes.conf'), '--cluster-node-timeout', String(clusterNodeTimeoutMs));
    const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.output = '';
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString('utf8')).slice(-4000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.process = child;
    await untilServing(child, () => answersPing(this.port, password), `redis-server on port ${this.port}`, () => this.output);
  }

  /** Stops redis-server (SIGTERM) and waits for its exit: the port refuses connections afterwards. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    await stopChild(child);
  }

  /** Kills redis-server outright (SIGKILL), as a crash or a lost machine would, and waits for its exit. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    await stopChild(child, 'SIGKILL');
  }

  /** Freezes redis-server (SIGSTOP): connections stay open, and nothing is answered until resume(). */
  pause(): void {
    this.process?.kill('SIGSTOP');
  }

  resume(): void {
    this.process?.kill('SIGCONT');
  }

  async dispose(): Promise<void> {
    this.resume();
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Whether it answers PING now (within a second), without blocking the event loop as cli() does. */
  answers(): Promise<boolean> {
    return answersPing(this.port, this.options.password);
  }

  /** Runs redis-cli against this server (password included) and returns its output; throws on failure. */
  cli(...args: string[]): string {
    const auth = this.options.password === undefined ? [] : ['--no-auth-warning', '-a', this.options.password];
    const result = spawnSync(REDIS_CLI, ['-p', String(this.port), ...auth, ...args], { encoding: 'utf8', timeout: 20_000 });
    if (result.status !== 0) throw new Error(`redis-cli ${args.join(' ')} failed: ${result.stderr}${result.stdout}`);
    return result.stdout;
  }
}

/** Sends PING (after AUTH) in the inline protocol; true once the answer is +PONG. */
function answersPing(port: number, password: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.once('connect', () => socket.write(`${password === undefined ? '' : `AUTH ${password}\r\n`}PING\r\n`));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      if (answer.includes('+PONG') || answer.includes('-')) {
        socket.destroy();
        resolve(answer.includes('+PONG'));
      }
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}
