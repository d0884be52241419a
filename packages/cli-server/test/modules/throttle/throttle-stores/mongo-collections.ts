import { guardedWithin, type MongoDatabase } from '@tessera/adapter-mongo';
import type { FakeDatabase } from '@tessera/testkit/mongo';
import { MongoRequestRateStore, type RequestRateDocument } from '../../../../src/modules/throttle/stores/mongo-request-rate-store.js';
import { MongoThrottleStore, type ThrottleDocument } from '../../../../src/modules/throttle/stores/mongo-throttle-store.js';
import { THROTTLE_COLLECTIONS } from '../../../../src/modules/throttle/stores/index.js';

/** The throttle module's Mongo stores on a fake database's collections, as its factory names them, without creating indexes. */
export function mongoThrottleStores(fake: FakeDatabase, collectionPrefix = '') {
  const database = fake as unknown as MongoDatabase;
  const guarded = guardedWithin(5000);
  return {
    failures: new MongoThrottleStore(database.collection<ThrottleDocument>(collectionPrefix + THROTTLE_COLLECTIONS.failures), guarded),
    requestRates: new MongoRequestRateStore(database.collection<RequestRateDocument>(collectionPrefix + THROTTLE_COLLECTIONS.requestRates), guarded),
  };
}
