import type { Container, ResolvedValueInjectOptions } from 'inversify';
import type { Key } from './keys.js';

/** What a factory needs: one bound value, or `{ all }` for every value of a multi-bound token. */
export type Dependency = Key<unknown> | { readonly all: Key<unknown> };

type Resolved<D> = D extends { readonly all: Key<infer V> } ? V[] : D extends Key<infer V> ? V : never;
type ResolvedList<Ds extends readonly Dependency[]> = { -readonly [K in keyof Ds]: Resolved<Ds[K]> };

/**
 * Type-checked bindings on an Inversify container, for plain classes and functions (no decorators):
 * a factory's parameters must match the tokens it lists. Every binding is a singleton.
 */
export class Binder {
  private readonly resources: Key<unknown>[] = [];

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
   * A singleton that is opened (perhaps asynchronously, such as a database connection) by `open()`
   * and closed by `close()`; what depends on it resolves once it is open.
   */
  resource<T, const Ds extends readonly Dependency[]>(key: Key<T>, dependencies: Ds, open: (...values: ResolvedList<Ds>) => T | Promise<T>, close: (value: T) => Promise<void>): void {
    this.container
      .bind<T>(key)
      // Inversify awaits a factory's promise in getAsync and keeps the value for every later get.
      .toResolvedValue(open as (...values: unknown[]) => T, dependencies.map(injectionOf))
      .inSingletonScope()
      .onDeactivation(close);
    this.resources.push(key);
  }

  /** Opens every resource, in the order they were bound. */
  async open(): Promise<void> {
    for (const key of this.resources) await this.container.getAsync(key);
  }

  /** Closes every resource that was opened (unbinding everything: the container is done). */
  close(): Promise<void> {
    return this.container.unbindAll();
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
