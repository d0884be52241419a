import { expect } from 'chai';
import { FixedClock, aProxyGrantingTicket, aProxyTicket, aServiceTicket, aTicketGrantingTicket } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { createMongoStores, type MongoDatabase } from '@tessera/adapter-mongo';

// Pins every query the ticket store sends: what a real cluster would be asked to do.
describe('MongoTicketStore: the exact queries it sends', () => {
  let clock: FixedClock;
  let database: FakeDatabase;
  const tickets = () => database.collection('tickets');
  const store = () => createMongoStores(database as unknown as MongoDatabase, clock).tickets;
  const nowDate = () => new Date(clock.now());

  beforeEach(() => {
    clock = new FixedClock();
    database = new FakeDatabase();
  });

  it('creates a TTL index on expiresAt (garbage collection only), an index on tgtId, and kind + expiresAt for the live TGT count', async () => {
    await store().createIndexes();
    expect(tickets().argsOf('createIndex')).to.deep.equal([
      [{ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }],
      [{ tgtId: 1 }, { name: 'tgtId', sparse: true }],
      [{ kind: 1, expiresAt: 1 }, { name: 'kind_expiresAt' }],
    ]);
  });

  it('stores a TGT keyed by its id, every time as a BSON Date, and reads it back without _id', async () => {
    const tgt = aTicketGrantingTicket(clock, { servicesGranted: 2 });
    await store().save(tgt);
    const [[stored]] = tickets().argsOf('insertOne') as [[Record<string, unknown>]];
    expect(stored).to.deep.equal({
      _id: tgt.id,
      kind: 'TGT',
      authentication: { ...tgt.authentication, authenticatedAt: new Date(tgt.authentication.authenticatedAt) },
      createdAt: new Date(tgt.createdAt),
      hardExpiresAt: new Date(tgt.hardExpiresAt),
      expiresAt: new Date(tgt.expiresAt),
      servicesGranted: 2,
    });
    expect(await store().get(tgt.id)).to.deep.equal(tgt).and.not.have.property('_id');
  });

  it('stores an ST with its parent tgtId and Dates, and nothing else', async () => {
    const st = aServiceTicket(clock);
    await store().save(st);
    expect(tickets().argsOf('insertOne')).to.deep.equal([
      [
        {
          _id: st.id,
          kind: 'ST',
          tgtId: st.tgtId,
          service: st.service,
          fromNewLogin: true,
          authenticatedAt: new Date(st.authenticatedAt),
          createdAt: new Date(st.createdAt),
          expiresAt: new Date(st.expiresAt),
        },
      ],
    ]);
  });

  it('reads with expiresAt > now, so a record the TTL monitor has not removed yet stays invisible', async () => {
    const st = aServiceTicket(clock);
    await store().save(st);
    clock.set(st.expiresAt);
    expect(await store().get(st.id)).to.equal(undefined);
    expect(tickets().argsOf('findOne')).to.deep.equal([[{ _id: st.id, expiresAt: { $gt: nowDate() } }]]);
    expect(tickets().documents).to.have.length(1);
  });

  it('consumes an ST with one findOneAndDelete on id, kind ST or PT, expiresAt > now and no uses left beyond this one', async () => {
    const st = aServiceTicket(clock);
    await store().save(st);
    expect(await store().consume(st.id)).to.deep.equal(st);
    expect(tickets().argsOf('findOneAndDelete')).to.deep.equal([[{ _id: st.id, kind: { $in: ['ST', 'PT'] }, expiresAt: { $gt: nowDate() }, usesLeft: { $not: { $gt: 1 } } }]]);
    expect(tickets().calls.map((call) => call.method)).to.deep.equal(['insertOne', 'findOneAndDelete']);
  });

  it('takes a use of a multi-use ST with a conditional $inc after the delete found nothing, and deletes it at its last', async () => {
    const st = aServiceTicket(clock, { usesLeft: 2 });
    await store().save(st);
    expect(await store().consume(st.id)).to.deep.equal(st);
    expect(tickets().argsOf('findOneAndUpdate')).to.deep.equal([
      [{ _id: st.id, kind: { $in: ['ST', 'PT'] }, expiresAt: { $gt: nowDate() }, usesLeft: { $gt: 1 } }, { $inc: { usesLeft: -1 } }, { returnDocument: 'before' }],
    ]);
    expect(await store().consume(st.id)).to.deep.equal({ ...st, usesLeft: 1 });
    expect(tickets().calls.map((call) => call.method)).to.deep.equal(['insertOne', 'findOneAndDelete', 'findOneAndUpdate', 'findOneAndDelete']);
  });

  it('touches a TGT with one conditional findOneAndUpdate: live, under its hard limit, $inc and $set, document after', async () => {
    const tgt = aTicketGrantingTicket(clock);
    await store().save(tgt);
    clock.advanceSeconds(60);
    const slid = clock.now() + 7200_000;
    expect(await store().touch(tgt.id, slid)).to.deep.equal({ ...tgt, expiresAt: slid, servicesGranted: 1 });
    expect(tickets().argsOf('findOneAndUpdate')).to.deep.equal([
      [
        { _id: tgt.id, kind: 'TGT', expiresAt: { $gt: nowDate() }, hardExpiresAt: { $gt: nowDate() } },
        { $inc: { servicesGranted: 1 }, $set: { expiresAt: new Date(slid) } },
        { returnDocument: 'after' },
      ],
    ]);
  });

  it('never touches a TGT past its hard limit, even if its idle expiry was set later', async () => {
    const tgt = aTicketGrantingTicket(clock, { expiresAt: clock.now() + 10_000, hardExpiresAt: clock.now() + 5_000 });
    await store().save(tgt);
    clock.advance(5_000);
    expect(await store().touch(tgt.id, clock.now() + 1000)).to.equal(undefined);
  });

  it('stores a PGT and a PT with their session, proxy chain and Dates, and nothing else', async () => {
    const pgt = aProxyGrantingTicket(clock);
    const pt = aProxyTicket(clock, { tgtId: pgt.tgtId, grantedBy: pgt.id });
    await store().save(pgt);
    await store().save(pt);
    const times = (ticket: { createdAt: number; expiresAt: number }) => ({ createdAt: new Date(ticket.createdAt), expiresAt: new Date(ticket.expiresAt) });
    expect(tickets().argsOf('insertOne')).to.deep.equal([
      [{ _id: pgt.id, kind: 'PGT', tgtId: pgt.tgtId, service: pgt.service, proxies: pgt.proxies, ...times(pgt) }],
      [{ _id: pt.id, kind: 'PT', tgtId: pt.tgtId, grantedBy: pgt.id, service: pt.service, proxies: pt.proxies, authenticatedAt: new Date(pt.authenticatedAt), ...times(pt) }],
    ]);
  });

  it('removes by id, and descendants of every kind with two deleteMany on the indexed tgtId: live ones counted, then the rest', async () => {
    const tgt = aTicketGrantingTicket(clock);
    await store().save(tgt);
    await store().save(aServiceTicket(clock, { tgtId: tgt.id, expiresAt: clock.now() + 1000 }));
    await store().save(aServiceTicket(clock, { tgtId: tgt.id, expiresAt: clock.now() + 60_000 }));
    await store().save(aProxyGrantingTicket(clock, { tgtId: tgt.id }));
    clock.advance(1000);
    expect(await store().removeDescendants(tgt.id)).to.equal(2);
    await store().remove(tgt.id);
    expect(tickets().argsOf('deleteMany')).to.deep.equal([[{ tgtId: tgt.id, expiresAt: { $gt: nowDate() } }], [{ tgtId: tgt.id }]]);
    expect(tickets().argsOf('deleteOne')).to.deep.equal([[{ _id: tgt.id }]]);
    expect(tickets().documents).to.deep.equal([]);
  });
});
