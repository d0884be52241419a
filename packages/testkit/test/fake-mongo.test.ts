import { expect } from 'chai';
import { FakeCollection, FakeDatabase } from '@tessera/testkit/mongo';
import { rejectionOf } from '@tessera/testkit';

// The fake stands in for the server in the Mongo adapter's contract runs: where the adapter relies on
// a server behaviour, the fake must show it, or a store that breaks on a real server passes here.
describe('the fake MongoDB collection behaves as the server where the adapter relies on it', () => {
  it('sorts strings without a collation by their UTF-8 bytes, as the server does (not by UTF-16 code units)', async () => {
    const collection = new FakeCollection();
    const names = ['😀', 'école', 'Zeta', '\uFF21', 'app_x', 'app1'];
    collection.documents = names.map((name, index) => ({ _id: index, name }));
    const sorted = await collection.find({}).sort({ name: 1 }).toArray();
    expect(sorted.map((document) => document.name)).to.deep.equal(['Zeta', 'app1', 'app_x', 'école', '\uFF21', '😀']);
    const reversed = await collection.find({}).sort({ name: -1 }).limit(2).toArray();
    expect(reversed.map((document) => document.name)).to.deep.equal(['😀', '\uFF21']);
  });

  it('lets two upserts both miss their filter, then refuses the second insert of the _id with E11000, writing nothing', async () => {
    const collection = new FakeCollection();
    const results = await Promise.allSettled([
      collection.findOneAndUpdate({ _id: 'alice', step: { $lt: 5 } }, { $set: { step: 5 } }, { upsert: true }),
      collection.findOneAndUpdate({ _id: 'alice', step: { $lt: 6 } }, { $set: { step: 6 } }, { upsert: true }),
    ]);
    expect(results.map((result) => result.status)).to.deep.equal(['fulfilled', 'rejected']);
    expect(((results[1] as PromiseRejectedResult).reason as { code?: unknown }).code).to.equal(11000);
    expect(collection.documents).to.deep.equal([{ _id: 'alice', step: 5 }]);
  });

  it('fails every call while the database is lost, and sends but never answers while it is silent', async () => {
    const database = new FakeDatabase();
    const lost = new Error('connection closed');
    database.failEveryCall(lost);
    expect(await rejectionOf(database.collection('tickets').findOne({ _id: 'x' }))).to.equal(lost);
    database.failEveryCall(undefined);
    database.stopAnswering();
    const unanswered = database.collection('tickets').findOne({ _id: 'y' });
    const outcome = await Promise.race([unanswered.then(() => 'answered'), new Promise((resolve) => setImmediate(() => resolve('still waiting')))]);
    expect(outcome).to.equal('still waiting');
    expect(database.collection('tickets').argsOf('findOne')).to.deep.equal([[{ _id: 'x' }], [{ _id: 'y' }]]);
    const controller = new AbortController();
    const ping = database.command({ ping: 1 }, { signal: controller.signal });
    controller.abort(new Error('given up'));
    expect((await rejectionOf(ping)).message).to.equal('given up');
  });
});
