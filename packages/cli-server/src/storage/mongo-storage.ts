import { MemoryUserDirectory } from '@tessera/adapter-memory';
import { COLLECTIONS, MongoReadinessCheck, MongoRecordStores, connectMongo, createMongoStores, guardedWithin, type MongoConnection, type RecordDocument } from '@tessera/adapter-mongo';
import { InvalidConfigurationError, StoreUnavailableError } from '@tessera/core';
import type { CentralSections } from '../config/central.js';
import { ServicesStoredThenConfigured, UsersConfiguredThenStored } from './configured-and-stored.js';
import type { Storage, StorageInputs } from './storage.js';

type MongoSettings = CentralSections['storage']['mongo'];

/**
 * Connects, creates the indexes, then upserts the configured services (every node writes the same;
 * services registered by other means stay). Configured users are never written: they are answered
 * from the configuration, before the `users` collection, and configured services the database has
 * lost from it too, as on Redis. Any failure here stops the start with one line naming the setting.
 */
export async function openMongoStorage({ config, services, clock, random, logger, mongoDatabase }: StorageInputs): Promise<Storage> {
  const settings = config.storage.mongo;
  const connection = mongoDatabase === undefined ? await connect(settings) : undefined;
  try {
    const database = mongoDatabase ?? connection!.client.db(settings.database);
    const timeoutMs = settings.timeoutSeconds * 1000;
    const stores = createMongoStores(database, clock, settings.collectionPrefix, timeoutMs);
    await stores.createIndexes();
    const records = new MongoRecordStores(database.collection<RecordDocument>(settings.collectionPrefix + COLLECTIONS.records), clock, random, guardedWithin(timeoutMs));
    await records.createIndexes();
    for (const service of services) await stores.registry.save(service);
    const collections = Object.values(COLLECTIONS).map((name) => settings.collectionPrefix + name);
    logger.info({ database: settings.database, collections, services: services.length }, 'MongoDB storage ready');
    const readiness = new MongoReadinessCheck(database, timeoutMs);
    const users = new UsersConfiguredThenStored(new MemoryUserDirectory(config.users), stores.users);
    const registry = new ServicesStoredThenConfigured(stores.registry, services);
    return {
      ports: { tickets: stores.tickets, users, registry, records, readiness, liveTgts: stores.tickets },
      connection: { kind: 'mongo', database, collectionPrefix: settings.collectionPrefix, guarded: guardedWithin(timeoutMs) },
      close: async () => connection?.close(),
    };
  } catch (error) {
    await connection?.close();
    throw startFailure(error, 'storage.mongo.database');
  }
}

async function connect(settings: MongoSettings): Promise<MongoConnection> {
  if (settings.uri === undefined) throw new InvalidConfigurationError('storage.mongo.uri', 'required when storage.type is mongo');
  try {
    return await connectMongo(settings.uri, settings.timeoutSeconds * 1000);
  } catch (error) {
    throw startFailure(error, 'storage.mongo.uri');
  }
}

/** A lost database stays "unavailable" (exit 1); anything else (an unparsable URI, refused credentials) is configuration (exit 2). */
function startFailure(error: unknown, setting: string): Error {
  const reason = oneLine(error instanceof Error ? error.message : String(error));
  if (error instanceof StoreUnavailableError) return new StoreUnavailableError(`storage.mongo.uri: ${reason}`, { cause: error });
  return new InvalidConfigurationError(setting, reason);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
