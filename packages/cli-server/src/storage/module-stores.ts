import type { RedisClient } from '@tessera/adapter-redis';
import type { Guarded, MongoDatabase } from '@tessera/adapter-mongo';

/**
 * What the storage hands a module that keeps a specialised store of its own (docs/adding-a-module.md):
 * the kind of storage `storage.type` chose and its open connection, with the names the storage's own
 * keys and collections start with. The storage closes the connection; a module's store only uses it.
 */
export type StorageConnection =
  | { readonly kind: 'memory' }
  | { readonly kind: 'redis'; readonly client: RedisClient; readonly keyPrefix: string }
  | {
      readonly kind: 'mongo';
      readonly database: MongoDatabase;
      readonly collectionPrefix: string;
      /** Bounds a call by `storage.mongo.timeoutSeconds` and maps a lost database to StoreUnavailableError (503). */
      readonly guarded: Guarded;
    };

export type StorageKind = StorageConnection['kind'];

/**
 * A module's store on each kind of storage: a factory per kind, given that storage's connection. Every
 * kind must have one, so a module with such a store works on every storage (a module that can do with
 * namespaces of records asks for `RecordStores` instead and needs none of this). A factory may be
 * async (a Mongo store creating its indexes); it runs once, when the container opens.
 */
export type ModuleStoreFactories<Store> = {
  readonly [Kind in StorageKind]: (connection: Extract<StorageConnection, { readonly kind: Kind }>) => Store | Promise<Store>;
};

/** The module's store on the storage the connection belongs to. */
export function openModuleStore<Store>(connection: StorageConnection, factories: ModuleStoreFactories<Store>): Store | Promise<Store> {
  switch (connection.kind) {
    case 'memory':
      return factories.memory(connection);
    case 'redis':
      return factories.redis(connection);
    case 'mongo':
      return factories.mongo(connection);
  }
}
