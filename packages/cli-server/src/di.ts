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
  constructor(private readonly container: Container) {}

  constant<T>(token: Key<T>, value: T): void {
    this.container.bind<T>(token).toConstantValue(value);
  }

  resolved<T, const Ds extends readonly Dependency[]>(token: Key<T>, dependencies: Ds, factory: (...values: ResolvedList<Ds>) => T): void {
    const injections = dependencies.map(injectionOf);
    this.container
      .bind<T>(token)
      .toResolvedValue(factory as (...values: unknown[]) => T, injections)
      .inSingletonScope();
  }

  get<T>(token: Key<T>): T {
    return this.container.get<T>(token);
  }

  getAll<T>(token: Key<T>): T[] {
    return this.container.getAll<T>(token, { optional: true });
  }
}

function injectionOf(dependency: Dependency): ResolvedValueInjectOptions<unknown> {
  if (typeof dependency === 'symbol') return dependency;
  // A module that is off binds nothing to its multi-bound tokens: an empty list, not an error.
  return { serviceIdentifier: dependency.all, isMultiple: true, optional: true } as ResolvedValueInjectOptions<unknown>;
}
