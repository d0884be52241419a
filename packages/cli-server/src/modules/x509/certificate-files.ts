import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { type Clock } from '@tessera/core';
import { describeRevocationList, trustAnchorCertificates, type RevocationListSource } from '@tessera/core/modules/x509';
import { configurationError } from '../../config/errors.js';

/** The DER certificates of `x509.trustAnchors`; a file that cannot be read or holds none stops the start, naming it. */
export function readTrustAnchors(files: readonly string[]): Uint8Array[] {
  return files.flatMap((file, index) => {
    const setting = `x509.trustAnchors[${index}]`;
    const bytes = readSync(setting, file);
    try {
      return trustAnchorCertificates(bytes);
    } catch (error) {
      throw configurationError([{ setting, problem: `${file} ${(error as Error).message}` }]);
    }
  });
}

/**
 * The CRL files of `x509.crl.files`, read at start (a bad one stops the start, naming it) and read
 * again by the first login after `refreshSeconds` on the clock, so an operator can replace a file
 * without a restart. A file that cannot be read again keeps its last contents and is logged as an
 * error: the CRL's own nextUpdate decides when that makes it stale.
 */
export class CrlFiles implements RevocationListSource {
  private lists: readonly Uint8Array[];
  private readAt: number;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly files: readonly string[],
    readonly refreshSeconds: number,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.lists = files.map((file, index) => {
      const setting = `x509.crl.files[${index}]`;
      const bytes = readSync(setting, file);
      this.check(setting, file, bytes, (problem) => configurationError([{ setting, problem: `${file} ${problem}` }]));
      return bytes;
    });
    this.readAt = clock.now();
  }

  async current(): Promise<readonly Uint8Array[]> {
    if (this.clock.now() - this.readAt >= this.refreshSeconds * 1000) {
      await (this.reading ??= this.readAgain().finally(() => (this.reading = undefined)));
    }
    return this.lists;
  }

  private async readAgain(): Promise<void> {
    const next = await Promise.all(this.files.map((file, index) => this.readOne(file, index)));
    this.readAt = this.clock.now();
    // The same array while nothing changed: the validator keeps what it parsed of it.
    if (next.some((bytes, index) => !Buffer.from(bytes).equals(Buffer.from(this.lists[index]!)))) this.lists = next;
  }

  private async readOne(file: string, index: number): Promise<Uint8Array> {
    const setting = `x509.crl.files[${index}]`;
    const previous = this.lists[index]!;
    try {
      const bytes = new Uint8Array(await readFile(file));
      if (!Buffer.from(bytes).equals(Buffer.from(previous))) this.check(setting, file, bytes, (problem) => new Error(problem));
      return bytes;
    } catch (error) {
      const problem = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      this.logger.error({ setting, file, problem }, `${setting}: cannot use ${file} (${problem}); keeping the CRL read before`);
      return previous;
    }
  }

  private check(setting: string, file: string, bytes: Uint8Array, failure: (problem: string) => Error): void {
    let crl: ReturnType<typeof describeRevocationList>;
    try {
      crl = describeRevocationList(bytes);
    } catch (error) {
      throw failure((error as Error).message);
    }
    const nextUpdate = crl.nextUpdate === undefined ? 'none' : new Date(crl.nextUpdate).toISOString();
    this.logger.info({ setting, file, issuer: crl.issuerDn, nextUpdate }, `${setting}: CRL of ${crl.issuerDn} read, next update ${nextUpdate}`);
  }
}

function readSync(setting: string, file: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(file));
  } catch (error) {
    throw configurationError([{ setting, problem: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
}
