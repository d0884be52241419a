import { compareServices, storedService, type RegisteredService, type ServiceRegistry } from '@tessera/core';
import type { RedisKeys } from './keys.js';
import type { RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/**
 * Service definitions in one Redis hash (field: id, value: the definition as JSON). Every node reads
 * the same hash on every lookup, so a definition saved on one is used by all at once. `list` reads it
 * whole: registries are small (hundreds of definitions), and one HVALS is one round trip.
 */
export class RedisServiceRegistry implements ServiceRegistry {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  async save(service: RegisteredService): Promise<RegisteredService> {
    await guarded(() => this.client.hset(this.keys.services, String(service.id), JSON.stringify(service)));
    return service;
  }

  async findById(id: number): Promise<RegisteredService | undefined> {
    const found = await guarded(() => this.client.hget(this.keys.services, String(id)));
    return found === null ? undefined : fromJson(found);
  }

  async list(): Promise<readonly RegisteredService[]> {
    const all = await guarded(() => this.client.hvals(this.keys.services));
    return all.map(fromJson).sort(compareServices);
  }

  async remove(id: number): Promise<boolean> {
    return (await guarded(() => this.client.hdel(this.keys.services, String(id)))) > 0;
  }
}

/** A stored definition, in today's form whichever version wrote it (storedService). */
function fromJson(json: string): RegisteredService {
  return storedService(JSON.parse(json) as RegisteredService);
}
