import type { Collection } from 'mongodb';
import type { RegisteredService, ServiceRegistry } from '@tessera/core';
import { fromServiceDocument, toServiceDocument, type ServiceDocument } from './service-documents.js';
import { guarded } from './unavailable.js';

/** compareServices as a sort: evaluation order, name ignoring case (the stored sort key), id. */
const SERVICE_ORDER = { evaluationOrder: 1, sortName: 1, _id: 1 } as const;

/** Service definitions in MongoDB; every node reads the same list, so a change shows everywhere. */
export class MongoServiceRegistry implements ServiceRegistry {
  constructor(private readonly services: Collection<ServiceDocument>) {}

  async createIndexes(): Promise<void> {
    await guarded(() => this.services.createIndex(SERVICE_ORDER, { name: 'evaluation_order' }));
  }

  async save(service: RegisteredService): Promise<RegisteredService> {
    await guarded(() => this.services.replaceOne({ _id: service.id }, toServiceDocument(service), { upsert: true }));
    return service;
  }

  async findById(id: number): Promise<RegisteredService | undefined> {
    const found = await guarded(() => this.services.findOne({ _id: id }));
    return found === null ? undefined : fromServiceDocument(found);
  }

  async list(): Promise<readonly RegisteredService[]> {
    const documents = await guarded(() => this.services.find({}).sort(SERVICE_ORDER).toArray());
    return documents.map(fromServiceDocument);
  }

  async remove(id: number): Promise<boolean> {
    const { deletedCount } = await guarded(() => this.services.deleteOne({ _id: id }));
    return deletedCount > 0;
  }
}
