import type { Container, ResolvedValueInjectOptions } from 'inversify';
import type { Key } from './keys.js';

/** What a factory needs: one bound value, or `{ all }` for every value of a multi-bound token. */
export type Dependency = Key<unknown> | { readonly all: Key<unknown> };

type Resolved<D> = D extends { readonly all: Key<infer V> } ? V[] : D extends Key<infer V> ? V : never;
type ResolvedList<Ds extends readonly Dependency[]> = { -readonly [K in keyof Ds]: Resolved<Ds[K]> };

/**
 * Type-checked bindings on an Inversify container, for plain classes and functions (no decorators):
 * a factory's parameters must match the tokens it lists. Every binding is a singleton.
 *
 * Resources are what has a lifetime (a stream, a store connection, a listener, a timer): `open()`
 * opens them in the order they were bound, and `close()` closes what was opened in the reverse order,
 * each once. A start that fails part way closes what it had opened, so nothing is left behind.
 */
export class Binder {
  private readonly resources: Key<unknown>[] = [];
  /** How to close each resource opened so far, in the order they opened. */
  private readonly opened: (() => Promise<void>)[] = [];
  private opening: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly container: Container) {}

  constant<T>(key: Key<T>, value: T): void {
    this.container.bind<T>(key).toConstantValue(value);
  }

  resolved<T, const Ds extends readonly Dependency[]>(key: Key<T>, dependencies: Ds, factory: (...values: ResolvedList<Ds>) => T): void {
    const injections = dependencies.map(injectionOf);
    this.container
      .bind<T>(key)
      .toResolvedValue(factory as (...values: unknown[]) => T, injections)
      .inSingletonScope();
  }

  /**
   * A singleton opened (perhaps asynchronously, such as a database connection) by `open()`, or by
   * the first `get` of it or of what depends on it when it opens at once, and closed by `close()`;
   * what depends on it resolves once it is open.
   */
  resource<T, const Ds extends readonly Dependency[]>(key: Key<T>, dependencies: Ds, open: (...values: ResolvedList<Ds>) => T | Promise<T>, close: (value: T) => Promise<void> | void): void {
    const opened = (value: T): T => {
      this.opened.push(async () => close(value));
      return value;
    };
    const openAndRemember = (...values: unknown[]): T | Promise<T> => {
      const value = (open as (...values: unknown[]) => T | Promise<T>)(...values);
      // Inversify awaits a factory's promise in getAsync and keeps the value for every later get.
      return value instanceof Promise ? value.then(opened) : opened(value);
    };
    this.container
      .bind<T>(key)
      .toResolvedValue(openAndRemember as (...values: unknown[]) => T, dependencies.map(injectionOf))
      .inSingletonScope();
    this.resources.push(key);
  }

  /** Opens every resource in the order they were bound; when one fails, closes those opened (in reverse) and rejects with its error. */
  open(): Promise<void> {
    return (this.opening ??= this.openInOrder());
  }

  private async openInOrder(): Promise<void> {
    try {
      for (const key of this.resources) {
        if (this.closing) throw new Error('closed while opening');
        await this.container.getAsync(key);
      }
    } catch (error) {
      // The failure to open says what went wrong; a failure to close what had opened would hide it.
      await this.closeOpened().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Closes every resource opened, in the reverse order, each once, after an `open()` under way has
   * settled. A resource that fails to close does not keep the others open: the first failure is
   * thrown once they are all closed.
   */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      await this.opening?.catch(() => undefined);
      await this.closeOpened();
    })());
  }

  private async closeOpened(): Promise<void> {
    const failures: unknown[] = [];
    for (let close = this.opened.pop(); close; close = this.opened.pop()) {
      await close().catch((error: unknown) => failures.push(error));
    }
    if (failures.length > 0) throw failures[0];
  }

  get<T>(key: Key<T>): T {
    return this.container.get<T>(key);
  }

  getAll<T>(key: Key<T>): T[] {
    return this.container.getAll<T>(key, { optional: true });
  }
}

function injectionOf(dependency: Dependency): ResolvedValueInjectOptions<unknown> {
  if (typeof dependency === 'symbol') return dependency;
  // A module that is off binds nothing to its multi-bound tokens: an empty list, not an error.
  return { serviceIdentifier: dependency.all, isMultiple: true, optional: true } as ResolvedValueInjectOptions<unknown>;
}
