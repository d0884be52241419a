import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { cryptoRandomSource } from '@tessera/core';
import { OTP_STEP_NAMESPACE, RecordOtpReplayStore } from '@tessera/core/modules/otp';
import { RecordServiceSessionStore, SERVICE_SESSION_NAMESPACE, type ServiceSession } from '@tessera/core/modules/login';
import { FixedClock, aServiceTicket, aTicketGrantingTicket } from '@tessera/testkit';
import { describeWithRedisCluster, type SlotMigration } from '@tessera/testkit/redis';
import { RedisKeys, RedisRecordStores, connectRedis, createRedisStores, type RedisConnection } from '@tessera/adapter-redis';

/**
 * The stores on a Redis Cluster while `redis-cli --cluster reshard` moves a hash slot: the slot
 * MIGRATING on the node that held it, IMPORTING on the one it goes to, and its keys moved one by one,
 * so some are on each node. Every case moves the slot of the keys it uses, and ends the move after it.
 */
describeWithRedisCluster('redis adapter on a Redis Cluster while a hash slot is being moved', (cluster) => {
  let connection: RedisConnection;
  let migration: SlotMigration | undefined;
  let prefix = '';

  before(async () => {
    connection = await connectRedis({ clusterNodes: cluster().urls, connectTimeoutMs: 2000, commandTimeoutMs: 2000 });
  });
  after(() => connection.close());
  beforeEach(() => {
    prefix = `t${randomBytes(4).toString('hex')}:`;
  });
  afterEach(() => {
    migration?.finish();
    migration = undefined;
  });

  const fixture = () => {
    const clock = new FixedClock(Date.now());
    return { clock, keys: new RedisKeys(prefix), stores: createRedisStores(connection.client, clock, prefix) };
  };
  const begin = (key: string | undefined): SlotMigration => {
    if (key === undefined) throw new Error('no key');
    migration = cluster().beginMigration(key);
    return migration;
  };
  /** This case's keys in the moving slot, on the old node and on the new one. */
  const onEachNode = (moving: SlotMigration) => ({
    source: moving.keysOn(moving.source).filter((key) => key.startsWith(prefix)),
    target: moving.keysOn(moving.target).filter((key) => key.startsWith(prefix)),
  });

  it('logs out a TGT whose STs are split between the two nodes: the TGT, every ST and their index go from both', async () => {
    const { clock, keys, stores } = fixture();
    const tgt = aTicketGrantingTicket(clock);
    const sts = Array.from({ length: 3 }, () => aServiceTicket(clock, { tgtId: tgt.id }));
    for (const ticket of [tgt, ...sts]) await stores.tickets.save(ticket);
    const moving = begin(keys.ticket(tgt.id));
    moving.move(keys.ticket(sts[0]!.id)!);
    expect(onEachNode(moving)).to.deep.equal({
      source: [keys.descendants(tgt.id), ...[tgt, sts[1]!, sts[2]!].map((ticket) => keys.ticket(ticket.id))].sort(),
      target: [keys.ticket(sts[0]!.id)],
    });

    // DestroyTicketGrantingTicket's two steps, as DELETE /v1/tickets/{tgt} runs them.
    await stores.tickets.remove(tgt.id);
    expect(await stores.tickets.removeDescendants(tgt.id)).to.equal(3);

    expect(onEachNode(moving)).to.deep.equal({ source: [], target: [] });
    for (const st of sts) expect(await stores.tickets.get(st.id)).to.equal(undefined);
  });

  it("grants, reads, slides and consumes tickets whose keys are on either node, and a logout after it leaves only the TGT's own key", async () => {
    const { clock, keys, stores } = fixture();
    const { tickets } = stores;
    const tgt = aTicketGrantingTicket(clock);
    const [moved, stayed] = [aServiceTicket(clock, { tgtId: tgt.id }), aServiceTicket(clock, { tgtId: tgt.id })];
    for (const ticket of [tgt, moved, stayed]) await tickets.save(ticket);
    const moving = begin(keys.ticket(tgt.id));
    moving.move(keys.ticket(moved.id)!);

    expect(await tickets.get(moved.id)).to.deep.equal(moved);
    expect(await tickets.get(stayed.id)).to.deep.equal(stayed);
    expect((await tickets.touch(tgt.id, clock.now() + 60_000))?.servicesGranted).to.equal(1);
    moving.move(keys.ticket(tgt.id)!);
    expect((await tickets.touch(tgt.id, clock.now() + 90_000))?.servicesGranted).to.equal(2);

    // A new ST's key is on neither node yet; its TGT's index is still on the old one.
    const granted = aServiceTicket(clock, { tgtId: tgt.id });
    await tickets.save(granted);
    expect(await tickets.get(granted.id)).to.deep.equal(granted);

    expect(await tickets.consume(moved.id)).to.deep.equal(moved);
    expect(await tickets.consume(stayed.id)).to.deep.equal(stayed);
    expect(await tickets.consume(stayed.id)).to.equal(undefined);

    expect(await tickets.removeDescendants(tgt.id)).to.equal(1);
    expect(await tickets.get(granted.id)).to.equal(undefined);
    expect(onEachNode(moving)).to.deep.equal({ source: [], target: [keys.ticket(tgt.id)] });
  });

  it('counts a new TGT in the live gauge when its key is being moved and every TGT it counted has died', async () => {
    const { clock, keys, stores } = fixture();
    await stores.tickets.save(aTicketGrantingTicket(clock, { expiresAt: clock.now() + 1000 }));
    expect(await stores.tickets.liveTgts()).to.equal(1);
    clock.advance(1000);
    begin(keys.liveTgts);

    await stores.tickets.save(aTicketGrantingTicket(clock));
    expect(await stores.tickets.liveTgts()).to.equal(1);
  });

  it('claims OTP steps and keeps single-logout records (module stores on records) with each key on the old node, then on the new one', async () => {
    const { clock, keys } = fixture();
    const now = clock.now();
    // The login and otp modules' stores, on the storage's records.
    const records = new RedisRecordStores(connection.client, keys, clock, cryptoRandomSource);
    const otpSteps = new RecordOtpReplayStore(records, clock);
    const serviceSessions = new RecordServiceSessionStore(records);
    const session = (n: number): ServiceSession => ({ ticketId: `ST-${n}-abcd-test`, service: `https://app${n}.example.org/`, principal: 'casuser' });
    const tgtId = 'TGT-1-abcd-test';
    // Each key exists before its slot starts moving, as on a running server.
    const cases: { key: string; prime: () => Promise<unknown>; step: (round: 0 | 1) => Promise<unknown>; expected: [unknown, unknown] }[] = [
      { key: keys.record(OTP_STEP_NAMESPACE, 'casuser'), prime: () => otpSteps.claim('casuser', 59_000_000), step: (round) => otpSteps.claim('casuser', 59_000_001 + round), expected: [true, true] },
      {
        key: keys.record(SERVICE_SESSION_NAMESPACE, tgtId),
        prime: () => serviceSessions.add(tgtId, session(0), now, 3),
        step: (round) => serviceSessions.add(tgtId, session(round + 1), now, 2),
        expected: [[], [session(0)]],
      },
    ];
    for (const { key, prime, step, expected } of cases) {
      await prime();
      const moving = begin(key);
      expect(await step(0), `${key} on the old node`).to.deep.equal(expected[0]);
      expect(onEachNode(moving), key).to.deep.equal({ source: [key], target: [] });
      moving.move(key);
      expect(await step(1), `${key} on the new node`).to.deep.equal(expected[1]);
      expect(onEachNode(moving), key).to.deep.equal({ source: [], target: [key] });
      moving.finish();
      migration = undefined;
    }
    expect(await serviceSessions.take(tgtId)).to.deep.equal([session(1), session(2)]);
  });
});
