import { compareServices, type RegisteredService, type ServiceRegistry, type UserDirectory, type UserRecord } from '@tessera/core';

/**
 * The configured `users` first, then the shared store's. A configured user is answered from the
 * configuration alone, so it never depends on the store's data (a Redis restarted empty, a failover to
 * an empty replica, a flush) and wins over a stored user of the same name: the configuration is the
 * truth for the names it lists. Any other name is looked up in the store, where users added by other
 * means live.
 */
export class UsersConfiguredThenStored implements UserDirectory {
  constructor(
    private readonly configured: UserDirectory,
    private readonly stored: UserDirectory,
  ) {}

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    return (await this.configured.findByUsername(username)) ?? this.stored.findByUsername(username);
  }
}

/**
 * The shared store's services, then each configured service the store lacks. The store is written at
 * start with the configured services and at run time by registration and `services import`, which may
 * replace a configured id until the next start (as on memory storage); a configured service the store
 * has lost (emptied, failed over, flushed) is answered from the configuration, so it never vanishes
 * with the store's data. Saves and removals go to the store: removing a configured id takes away the
 * stored copy only, and the configured definition is answered again.
 */
export class ServicesStoredThenConfigured implements ServiceRegistry {
  private readonly configured: ReadonlyMap<number, RegisteredService>;

  constructor(
    private readonly stored: ServiceRegistry,
    configured: readonly RegisteredService[],
  ) {
    this.configured = new Map(configured.map((service) => [service.id, service]));
  }

  save(service: RegisteredService): Promise<RegisteredService> {
    return this.stored.save(service);
  }

  async findById(id: number): Promise<RegisteredService | undefined> {
    return (await this.stored.findById(id)) ?? this.configured.get(id);
  }

  async list(): Promise<readonly RegisteredService[]> {
    const stored = await this.stored.list();
    const ids = new Set(stored.map((service) => service.id));
    const missing = [...this.configured.values()].filter((service) => !ids.has(service.id));
    return missing.length === 0 ? stored : [...stored, ...missing].sort(compareServices);
  }

  remove(id: number): Promise<boolean> {
    return this.stored.remove(id);
  }
}
