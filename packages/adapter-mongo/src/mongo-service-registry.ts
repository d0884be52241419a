import type { Collection } from 'mongodb';
import { compareServices, type RegisteredService, type ServiceRegistry } from '@tessera/core';
import { fromServiceDocument, toServiceDocument, type ServiceDocument } from './service-documents.js';
import type { Guarded } from './unavailable.js';

/**
 * Service definitions in MongoDB; every node reads the same list, so a change shows everywhere. `list`
 * reads them all and orders them with core's compareServices, as every store does: a sort on the server
 * would compare names by their UTF-8 bytes, or by a collation's rules, and match URLs differently.
 * Registries are small (hundreds of definitions), so one unsorted find is cheap.
 */
export class MongoServiceRegistry implements ServiceRegistry {
  constructor(
    private readonly services: Collection<ServiceDocument>,
    private readonly guarded: Guarded,
  ) {}

  async save(service: RegisteredService): Promise<RegisteredService> {
    await this.guarded(() => this.services.replaceOne({ _id: service.id }, toServiceDocument(service), { upsert: true }));
    return service;
  }

  async findById(id: number): Promise<RegisteredService | undefined> {
    const found = await this.guarded(() => this.services.findOne({ _id: id }));
    return found === null ? undefined : fromServiceDocument(found);
  }

  async list(): Promise<readonly RegisteredService[]> {
    const documents = await this.guarded(() => this.services.find({}).toArray());
    return documents.map(fromServiceDocument).sort(compareServices);
  }

  async remove(id: number): Promise<boolean> {
    const { deletedCount } = await this.guarded(() => this.services.deleteOne({ _id: id }));
    return deletedCount > 0;
  }
}
