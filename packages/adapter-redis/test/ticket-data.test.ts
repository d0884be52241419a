import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { FixedClock, aServiceTicket, aTicketGrantingTicket, rejectionOf } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { EXPIRY_MARGIN_MS, RedisKeys, connectRedis, createRedisStores, type RedisConnection } from '@tessera/adapter-redis';

/**
 * A ticket hash that tessera did not write (by hand, another program, damage) is a clear error when
 * read, naming the ticket by its first characters and what is wrong, never a ticket with fields
 * missing or a crash; the data itself is never shown.
 */
describeWithRedis('RedisTicketStore reading a ticket hash written by hand', (server) => {
  let connection: RedisConnection;
  const clock = new FixedClock(Date.now());
  let keys: RedisKeys;
  let stores: ReturnType<typeof createRedisStores>;

  before(async () => {
    connection = await connectRedis({ url: server().url, connectTimeoutMs: 2000, commandTimeoutMs: 2000 });
  });
  after(() => connection.close());
  beforeEach(() => {
    const prefix = `t${randomBytes(4).toString('hex')}:`;
    keys = new RedisKeys(prefix);
    stores = createRedisStores(connection.client, clock, prefix);
  });

  const later = () => String(clock.now() + 60_000);
  const write = (id: string, fields: Record<string, string>) => connection.client.hset(keys.ticket(id)!, fields);

  it("gives each ticket the native TTL of its own expiry (a service's lifetimes), the index that of its longest-lived ticket, and keeps a hard-timeout TGT's mark", async () => {
    const hardExpiresAt = clock.now() + 60_000;
    const tgt = aTicketGrantingTicket(clock, { hardExpiresAt, expiresAt: hardExpiresAt, hardTimeout: true });
    const long = aServiceTicket(clock, { tgtId: tgt.id, expiresAt: clock.now() + 600_000 });
    const brief = aServiceTicket(clock, { tgtId: tgt.id, expiresAt: clock.now() + 2000 });
    await stores.tickets.save(tgt);
    await stores.tickets.save(long);
    await stores.tickets.save(brief);
    expect(await connection.client.pttl(keys.ticket(tgt.id)!)).to.be.within(59_000, 60_000 + EXPIRY_MARGIN_MS);
    expect(await connection.client.pttl(keys.ticket(long.id)!)).to.be.within(599_000, 600_000 + EXPIRY_MARGIN_MS);
    expect(await connection.client.pttl(keys.ticket(brief.id)!)).to.be.within(1000, 2000 + EXPIRY_MARGIN_MS);
    expect(await connection.client.pttl(keys.descendants(tgt.id))).to.be.within(599_000, 600_000 + EXPIRY_MARGIN_MS);
    expect(JSON.parse((await connection.client.hget(keys.ticket(tgt.id)!, 'data'))!)).to.have.property('hardTimeout', true);
    // A touch keeps the hard end, and the key's TTL with it.
    await stores.tickets.touch(tgt.id, hardExpiresAt);
    expect(await connection.client.pttl(keys.ticket(tgt.id)!)).to.be.within(59_000, 60_000 + EXPIRY_MARGIN_MS);
  });

  it('refuses a service ticket whose data is not JSON, on get and on consume', async () => {
    const st = aServiceTicket(clock);
    await write(st.id, { kind: 'ST', expiresAt: later(), data: 'secret-looking {not json' });
    for (const read of [() => stores.tickets.get(st.id), () => stores.tickets.consume(st.id)]) {
      const failure = await rejectionOf(read());
      expect(failure.message).to.equal(`Ticket ${st.id.slice(0, 8)}… is stored in a shape tessera cannot read: its data is not JSON. Something other than tessera wrote it, or it was damaged`);
      expect(failure.message).to.not.include('secret-looking');
    }
  });

  it('refuses a service ticket whose data lacks fields or has them of the wrong type, naming them', async () => {
    const st = aServiceTicket(clock);
    await write(st.id, { kind: 'ST', expiresAt: later(), data: JSON.stringify({ tgtId: 7, service: 'https://app.example.org/', createdAt: clock.now() }) });
    const failure = await rejectionOf(stores.tickets.get(st.id));
    expect(failure.message).to.include("its data does not have a ST's shape (tgtId, fromNewLogin, authenticatedAt)");
  });

  it('refuses a TGT whose authentication is damaged, and one whose expiry is not a number', async () => {
    const tgt = aTicketGrantingTicket(clock);
    const authentication = { ...tgt.authentication, principal: { id: 'casuser' } };
    await write(tgt.id, { kind: 'TGT', expiresAt: later(), hardExpiresAt: later(), servicesGranted: '0', data: JSON.stringify({ authentication, createdAt: clock.now() }) });
    expect((await rejectionOf(stores.tickets.get(tgt.id))).message).to.include("its data does not have a TGT's shape (authentication.principal.attributes)");

    const other = aTicketGrantingTicket(clock);
    await write(other.id, { kind: 'TGT', expiresAt: 'soon', hardExpiresAt: later(), servicesGranted: '0', data: JSON.stringify({ authentication: other.authentication, createdAt: clock.now() }) });
    expect((await rejectionOf(stores.tickets.get(other.id))).message).to.include('its expiresAt is not a whole number');
  });

  it('still reads what it wrote itself', async () => {
    const tgt = aTicketGrantingTicket(clock);
    const st = aServiceTicket(clock, { tgtId: tgt.id });
    await stores.tickets.save(tgt);
    await stores.tickets.save(st);
    expect(await stores.tickets.get(tgt.id)).to.deep.equal(tgt);
    expect(await stores.tickets.consume(st.id)).to.deep.equal(st);
  });
});
