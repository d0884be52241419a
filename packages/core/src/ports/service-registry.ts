import type { RegisteredService } from '../domain/registry/registered-service.js';

/** Where service definitions live. Every implementation passes the contract suite in @tessera/testkit. */
export interface ServiceRegistry {
  /** Stores the definition; one with the same id is replaced. Takes effect for the next lookup. */
  save(service: RegisteredService): Promise<RegisteredService>;

  findById(id: number): Promise<RegisteredService | undefined>;

  /** Every definition, ordered by `compareServices` (evaluation order, name, id). */
  list(): Promise<readonly RegisteredService[]>;

  /** true when a definition was removed. */
  remove(id: number): Promise<boolean>;
}
