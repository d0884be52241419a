import { expect } from 'chai';
import { mock } from 'node:test';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { describeWithRedis } from '@tessera/testkit/redis';
import { buildContainer, createLogger, openStorage, parseConfig, KEYS, type CompositionInputs } from '@tessera/cli-server';

const MINUTE = 60_000;

// Modules open their stores as namespaces of KEYS.RecordStores, on whichever storage `storage.type` names.
describe('record stores in the container', () => {
  it('on memory storage: one RecordStores for the whole server, a namespace opened twice holding the same records', async () => {
    const binder = buildContainer({ config: parseConfig({}), logger: createLogger('silent') });
    const records = binder.get(KEYS.RecordStores);
    expect(binder.get(KEYS.RecordStores)).to.equal(records);
    expect(records).to.equal(binder.get(KEYS.Storage).ports.records);
    await records.namespace('fixture').put('a', { n: 1 }, Date.now() + MINUTE);
    expect(await binder.get(KEYS.RecordStores).namespace('fixture').get('a')).to.deep.equal({ n: 1 });
  });

  it("on memory storage: the sweeper frees expired records on the storage's sweep interval", async () => {
    mock.timers.enable({ apis: ['setInterval', 'Date'], now: Date.UTC(2026, 10, 21) });
    try {
      const storage = await openStorage({
        config: parseConfig({ storage: { memory: { sweepIntervalSeconds: 30 } } }),
        services: [],
        clock: { now: () => Date.now() },
        random: { bytes: (size) => new Uint8Array(size) },
        logger: createLogger('silent'),
      });
      const records = storage.ports.records as unknown as { size: number; namespace: (name: string) => { put(id: string, value: number, expiresAt: number): Promise<void> } };
      await records.namespace('fixture').put('short', 1, Date.now() + MINUTE);
      await records.namespace('fixture').put('long', 2, Date.now() + 2 * MINUTE);
      mock.timers.tick(MINUTE);
      expect(records.size).to.equal(1);
      await storage.close();
    } finally {
      mock.timers.reset();
    }
  });

  it('on mongo storage: the records collection, after the prefix, with its indexes', async () => {
    const database = new FakeDatabase();
    const config = parseConfig({ storage: { type: 'mongo', mongo: { uri: 'mongodb://db.invalid:27017', collectionPrefix: 'sso_' } } });
    const binder = buildContainer({ config, logger: createLogger('silent'), mongoDatabase: database as unknown as CompositionInputs['mongoDatabase'] });
    await binder.open();
    try {
      await binder.get(KEYS.RecordStores).namespace('fixture').put('a', 1, Date.now() + MINUTE);
      const collection = database.collection('sso_records');
      expect(collection.argsOf('createIndex').map(([, options]) => (options as { name: string }).name)).to.deep.equal(['expiresAt_ttl', 'namespace_group', 'namespace_dueAt']);
      expect(collection.documents.map((document) => document._id)).to.deep.equal(['fixture:a']);
    } finally {
      await binder.close();
    }
  });

  describeWithRedis('on redis storage', (redis) => {
    it('one hash per record, after the key prefix', async () => {
      const config = parseConfig({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'cas:' } } });
      const binder = buildContainer({ config, logger: createLogger('silent') });
      await binder.open();
      try {
        await binder.get(KEYS.RecordStores).namespace('fixture').put('a', 1, Date.now() + MINUTE);
        expect(redis().cli('hget', 'cas:rec:fixture:a', 'value').trim()).to.equal('1');
      } finally {
        await binder.close();
      }
    });
  });
});
