import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { stopChild, untilServing } from '../child-process.js';
import { freePort } from '../ports.js';
import { ADMIN_DN, ADMIN_PASSWORD, SEED_LDIF, slapdConfig } from './seed.js';
import { makeTlsFiles, slapdTlsConfig, type TlsFiles } from './tls-files.js';

const SLAPD = '/usr/sbin/slapd';
const LDAPADD = '/usr/bin/ldapadd';

/** Installed by scripts/install-slapd.sh (Debian slapd + ldap-utils). */
export function slapdInstalled(): boolean {
  return existsSync(SLAPD) && existsSync(LDAPADD);
}

/**
 * A real OpenLDAP server on a free loopback port, with a throwaway mdb database in a temp dir,
 * seeded once. stop() and start() keep the data, to test an outage and the recovery after it.
 */
export class Slapd {
  private process: ChildProcess | undefined;

  private constructor(
    private readonly dir: string,
    readonly port: number,
    /** With `tls`: the CA to trust, and a second port serving ldaps://. */
    readonly tls: (TlsFiles & { readonly ldapsPort: number }) | undefined,
  ) {}

  get url(): string {
    return `ldap://127.0.0.1:${this.port}`;
  }

  get ldapsUrl(): string {
    if (!this.tls) throw new Error('slapd was launched without tls');
    return `ldaps://127.0.0.1:${this.tls.ldapsPort}`;
  }

  /** `tls: true` also serves StartTLS and ldaps:// with a certificate from a throwaway CA (needs openssl). */
  static async launch(options: { readonly tls?: boolean } = {}): Promise<Slapd> {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-slapd-'));
    mkdirSync(join(dir, 'data'));
    const tls = options.tls ? { ...makeTlsFiles(dir), ldapsPort: await freePort() } : undefined;
    writeFileSync(join(dir, 'slapd.conf'), slapdConfig(dir) + (tls ? slapdTlsConfig(tls) : ''));
    const slapd = new Slapd(dir, await freePort(), tls);
    try {
      await slapd.start();
      const seeded = spawnSync(LDAPADD, ['-x', '-H', slapd.url, '-D', ADMIN_DN, '-w', ADMIN_PASSWORD], { input: SEED_LDIF, encoding: 'utf8' });
      if (seeded.status !== 0) throw new Error(`ldapadd failed: ${seeded.stderr}`);
      return slapd;
    } catch (error) {
      await slapd.dispose();
      throw error;
    }
  }

  async start(): Promise<void> {
    const urls = this.tls ? `${this.url} ${this.ldapsUrl}` : this.url;
    const child = spawn(SLAPD, ['-h', urls, '-f', join(this.dir, 'slapd.conf'), ...unprivileged(this.dir), '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    this.process = child;
    await untilServing(child, () => accepts(this.port), 'slapd', () => stderr);
  }

  /** Stops slapd and waits for its exit: the port refuses connections afterwards. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    await stopChild(child);
  }

  /** Freezes slapd (SIGSTOP), a hung directory: connections are still accepted, and nothing is answered until resume(). */
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
}

/** Running as root, slapd drops to the openldap user (who then owns the temp dir). */
function unprivileged(dir: string): string[] {
  if (userInfo().uid !== 0) return [];
  const ids = spawnSync('id', ['-u', 'openldap'], { encoding: 'utf8' });
  const groups = spawnSync('id', ['-g', 'openldap'], { encoding: 'utf8' });
  if (ids.status !== 0 || groups.status !== 0) return [];
  const [uid, gid] = [Number(ids.stdout.trim()), Number(groups.stdout.trim())];
  for (const path of [dir, ...readdirSync(dir).map((name) => join(dir, name))]) chownSync(path, uid, gid);
  return ['-u', 'openldap', '-g', 'openldap'];
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
