import { compareServices, type RegisteredService, type ServiceRegistry } from '@tessera/core';

/**
 * Service definitions in memory. `list` runs on every ticket request, so the sorted array is kept
 * ready and replaced (never mutated) on each change: a list already handed out stays valid.
 */
export class MemoryServiceRegistry implements ServiceRegistry {
  private readonly byId = new Map<number, RegisteredService>();
  private sorted: readonly RegisteredService[] = [];

  constructor(initial: readonly RegisteredService[] = []) {
    for (const service of initial) this.byId.set(service.id, service);
    this.resort();
  }

  save(service: RegisteredService): Promise<RegisteredService> {
    this.byId.set(service.id, service);
    this.resort();
    return Promise.resolve(service);
  }

  findById(id: number): Promise<RegisteredService | undefined> {
    return Promise.resolve(this.byId.get(id));
  }

  list(): Promise<readonly RegisteredService[]> {
    return Promise.resolve(this.sorted);
  }

  remove(id: number): Promise<boolean> {
    if (!this.byId.delete(id)) return Promise.resolve(false);
    this.resort();
    return Promise.resolve(true);
  }

  private resort(): void {
    this.sorted = Object.freeze([...this.byId.values()].sort(compareServices));
  }
}
