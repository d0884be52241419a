import { expect } from 'chai';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { createMongoStores, type MongoDatabase } from '@tessera/adapter-mongo';

// The login module's stores: the indexes that keep the expiry check and the used-token memory cheap.
describe('MongoServiceSessionStore and MongoFormTokenStore: their indexes and queries', () => {
  const database = new FakeDatabase();
  const stores = createMongoStores(database as unknown as MongoDatabase, { now: () => 0 });

  it('index the check time of single-logout records, and expire used form tokens with a TTL index', async () => {
    await stores.createIndexes();
    expect(database.collection('service_sessions').argsOf('createIndex')).to.deep.equal([[{ checkAt: 1 }, { name: 'checkAt' }]]);
    expect(database.collection('form_tokens').argsOf('createIndex')).to.deep.equal([[{ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }]]);
  });

  it('finds due records by the check time index, earliest first, a bounded number', async () => {
    await stores.serviceSessions.due(Date.UTC(2026, 0, 1), 7);
    const records = database.collection('service_sessions');
    expect(records.argsOf('find')).to.deep.equal([[{ checkAt: { $lte: new Date(Date.UTC(2026, 0, 1)) } }]]);
    expect(records.argsOf('find.sort')).to.deep.equal([[{ checkAt: 1 }]]);
    expect(records.argsOf('find.limit')).to.deep.equal([[7]]);
  });
});
