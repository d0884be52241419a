import { FakeCollection } from './fake-collection.js';

/**
 * A stand-in for a driver `Db`: collections by name, created on first use, all failing or falling
 * silent on demand; and `command`, which answers `ping` (the readiness check) and records each command
 * document.
 */
export class FakeDatabase {
  private readonly byName = new Map<string, FakeCollection>();
  private failure: Error | undefined;
  private silent = false;
  /** Every command document sent, in order (options such as an AbortSignal are not recorded). */
  readonly commands: Record<string, unknown>[] = [];

  collection(name: string): FakeCollection {
    let found = this.byName.get(name);
    if (found === undefined) {
      found = new FakeCollection();
      found.failWith = this.failure;
      found.silent = this.silent;
      this.byName.set(name, found);
    }
    return found;
  }

  command(command: Record<string, unknown>, options: { signal?: AbortSignal } = {}): Promise<Record<string, unknown>> {
    this.commands.push(structuredClone(command));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (options.signal?.aborted) return Promise.reject(options.signal.reason as Error);
    // As the driver does with an AbortSignal: a command never answered rejects with the signal's reason once it fires.
    if (this.silent) return new Promise((_resolve, reject) => options.signal?.addEventListener('abort', () => reject(options.signal?.reason as Error)));
    if (command.ping === 1) return Promise.resolve({ ok: 1 });
    return Promise.reject(new Error(`FakeDatabase: command ${Object.keys(command).join(', ')} is not supported`));
  }

  /** Every collection, present and future, and every command throw this (undefined: the database is back). */
  failEveryCall(error: Error | undefined): void {
    this.failure = error;
    for (const collection of this.byName.values()) collection.failWith = error;
  }

  /**
   * Every call, present and future, is sent and never answered, as by a primary that stopped answering
   * (the process hangs, the network drops its packets) until the driver gives up; false: answering again.
   */
  stopAnswering(silent = true): void {
    this.silent = silent;
    for (const collection of this.byName.values()) collection.silent = silent;
  }

  get names(): readonly string[] {
    return [...this.byName.keys()];
  }
}
