import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { StoreUnavailableError } from '@tessera/core';
import { FixedClock, aRegisteredService, aServiceTicket, aTicketGrantingTicket, freePort, rejectionOf } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { RedisKeys, connectRedis, createRedisStores, isUnavailable, type RedisClient, type RedisConnection } from '@tessera/adapter-redis';

const timeouts = { connectTimeoutMs: 1000, commandTimeoutMs: 500 };

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`within 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeWithRedis('redis adapter: outage and recovery on one connection', (server) => {
  let connection: RedisConnection;
  const changes: string[] = [];

  before(async () => {
    connection = await connectRedis({ url: server().url, ...timeouts }, { lost: (reason) => changes.push(`lost: ${reason}`), restored: () => changes.push('restored') });
  });
  after(() => connection.close());

  it('fails every operation and the readiness check with StoreUnavailableError while Redis is down, and serves again when it is back', async function () {
    this.timeout(30_000);
    const clock = new FixedClock(Date.now());
    const stores = createRedisStores(connection.client, clock, `t${randomBytes(4).toString('hex')}:`);
    const tgt = aTicketGrantingTicket(clock);
    await stores.tickets.save(tgt);
    await stores.readiness.check();

    await server().stop();
    await until(() => changes.length === 1, 'the loss is reported');
    const started = Date.now();
    for (const operation of [stores.tickets.get(tgt.id), stores.tickets.consume(`ST-1-abcd-x`), stores.registry.list(), stores.users.findByUsername('casuser'), stores.readiness.check()]) {
      expect(await rejectionOf(operation)).to.be.instanceOf(StoreUnavailableError);
    }
    expect(Date.now() - started, 'each fails within the command timeout').to.be.below(5 * timeouts.commandTimeoutMs);
    expect(changes).to.have.length(1);
    expect(changes[0]).to.match(/^lost: /);

    await server().start();
    await until(() => stores.readiness.check().then(() => true, () => false), 'the connection comes back');
    const st = aServiceTicket(clock);
    await stores.tickets.save(st);
    expect(await stores.tickets.consume(st.id)).to.deep.equal(st);
    expect(changes).to.deep.equal([changes[0], 'restored']);
  });
});

describeWithRedis('redis adapter: a server that stops answering', (server) => {
  let connection: RedisConnection;
  const changes: string[] = [];
  before(async () => {
    connection = await connectRedis({ url: server().url, ...timeouts }, { lost: (reason) => changes.push(`lost: ${reason}`), restored: () => changes.push('restored') });
  });
  after(() => connection.close());

  it('fails a command with StoreUnavailableError after commandTimeoutMs, drops the silent connection, and serves on a new one once it answers', async function () {
    this.timeout(30_000);
    const clock = new FixedClock(Date.now());
    const { tickets, readiness } = createRedisStores(connection.client, clock, `t${randomBytes(4).toString('hex')}:`);
    const tgt = aTicketGrantingTicket(clock);
    await tickets.save(tgt);
    server().pause();
    try {
      const started = Date.now();
      expect(await rejectionOf(tickets.get(tgt.id))).to.be.instanceOf(StoreUnavailableError);
      expect(Date.now() - started).to.be.within(timeouts.commandTimeoutMs - 50, 4 * timeouts.commandTimeoutMs);
      expect(await rejectionOf(readiness.check())).to.be.instanceOf(StoreUnavailableError);
    } finally {
      server().resume();
    }
    await until(() => readiness.check().then(() => true, () => false), 'answers again');
    expect(await tickets.get(tgt.id)).to.deep.equal(tgt);
    expect(changes).to.have.length(2);
    expect(changes[0]).to.match(/^lost: Socket timeout/);
    expect(changes[1]).to.equal('restored');
  });
});

describeWithRedis('redis adapter: what it leaves in Redis', (server) => {
  let connection: RedisConnection;
  before(async () => {
    connection = await connectRedis({ url: server().url, ...timeouts });
  });
  after(() => connection.close());

  it('gives every key an expiry but the service registry, whose definitions stay until removed', async () => {
    const prefix = `t${randomBytes(4).toString('hex')}:`;
    const clock = new FixedClock(Date.now());
    const stores = createRedisStores(connection.client, clock, prefix);
    const tgt = aTicketGrantingTicket(clock);
    await stores.tickets.save(tgt);
    await stores.tickets.save(aServiceTicket(clock, { tgtId: tgt.id }));
    await stores.tickets.touch(tgt.id, clock.now() + 60_000);
    await stores.registry.save(aRegisteredService());

    const keys = server().cli('--scan', '--pattern', `${prefix}*`).trim().split('\n').sort();
    expect(keys).to.have.length(5);
    const lasting = keys.filter((key) => Number(server().cli('pttl', key).trim()) < 0);
    expect(lasting).to.deep.equal([`${prefix}services`]);
  });

  it('counts live TGTs only: not expired by the clock, not removed', async () => {
    const clock = new FixedClock(Date.now());
    const { tickets } = createRedisStores(connection.client, clock, `t${randomBytes(4).toString('hex')}:`);
    const [short, slid, removed] = [aTicketGrantingTicket(clock, { expiresAt: clock.now() + 1000 }), aTicketGrantingTicket(clock, { expiresAt: clock.now() + 1000 }), aTicketGrantingTicket(clock)];
    for (const tgt of [short, slid, removed]) await tickets.save(tgt);
    expect(await tickets.liveTgts()).to.equal(3);
    await tickets.touch(slid.id, clock.now() + 60_000);
    await tickets.remove(removed.id);
    clock.advance(1000);
    expect(await tickets.liveTgts()).to.equal(1);
  });
});

/** The client, but each of its first `times` DELs waits for `meanwhile` first: a grant racing a logout, made certain. */
function withGrantsDuringDeletes(client: RedisClient, times: number, meanwhile: () => Promise<void>): RedisClient {
  let left = times;
  return new Proxy(client, {
    get(target, property) {
      if (property === 'del' && left-- > 0) return async (key: string) => (await meanwhile(), target.del(key));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describeWithRedis('redis adapter: a logout while its TGT still grants tickets', (server) => {
  let connection: RedisConnection;
  before(async () => {
    connection = await connectRedis({ url: server().url, ...timeouts });
  });
  after(() => connection.close());

  const fixture = () => {
    const prefix = `t${randomBytes(4).toString('hex')}:`;
    const clock = new FixedClock(Date.now());
    const tickets = createRedisStores(connection.client, clock, prefix).tickets;
    const tgt = aTicketGrantingTicket(clock);
    const granted: string[] = [];
    const grant = async () => {
      const st = aServiceTicket(clock, { tgtId: tgt.id });
      granted.push(st.id);
      await tickets.save(st);
    };
    const racing = (times: number) => createRedisStores(withGrantsDuringDeletes(connection.client, times, grant), clock, prefix).tickets;
    const index = new RedisKeys(prefix).descendants(tgt.id);
    return { tickets, tgt, granted, grant, racing, index };
  };

  it('also removes a ticket indexed while it ran, and the index', async () => {
    const { tickets, tgt, granted, grant, racing, index } = fixture();
    await grant();
    expect(await racing(1).removeDescendants(tgt.id)).to.equal(2);
    expect(granted).to.have.length(2);
    for (const id of granted) expect(await tickets.get(id)).to.equal(undefined);
    expect(server().cli('exists', index).trim()).to.equal('0');
  });

  it('gives up with StoreUnavailableError when grants never stop, every ticket it left still indexed, so a retry removes them', async () => {
    const { tickets, tgt, granted, grant, racing, index } = fixture();
    await grant();
    expect(await rejectionOf(racing(Infinity).removeDescendants(tgt.id))).to.be.instanceOf(StoreUnavailableError);
    const left = granted.at(-1)!;
    expect(server().cli('zrange', index, '0', '-1').trim()).to.equal(left);
    expect(await tickets.get(left)).to.not.equal(undefined);

    expect(await tickets.removeDescendants(tgt.id)).to.equal(1);
    expect(await tickets.get(left)).to.equal(undefined);
    expect(server().cli('exists', index).trim()).to.equal('0');
  });
});

describeWithRedis(
  'redis adapter: connecting',
  (server) => {
    it('names the server with its password masked when it cannot be reached within connectTimeoutMs', async () => {
      const url = `redis://:hunter2@127.0.0.1:${await freePort()}`;
      const started = Date.now();
      const error = await rejectionOf(connectRedis({ url, ...timeouts }));
      expect(error).to.be.instanceOf(StoreUnavailableError);
      expect(error.message).to.match(/^cannot reach Redis \(redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\) within 1000 ms: .*ECONNREFUSED/);
      expect(error.message).to.not.include('hunter2');
      expect(Date.now() - started).to.be.below(5000);
    });

    it('with keepTrying, an unreachable Redis is connected to once it answers: commands fail at once until then, restored says when', async () => {
      await server().stop();
      let toldRestored = () => {};
      const told = new Promise<void>((resolve) => (toldRestored = resolve));
      const connection = await connectRedis({ url: server().url, ...timeouts }, { lost: () => {}, restored: () => toldRestored() }, { keepTrying: true });
      try {
        expect(connection.unreachable).to.match(/^cannot reach Redis \(redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\) within 1000 ms/);
        expect(await rejectionOf(connection.client.ping())).to.be.instanceOf(Error);
        await server().start();
        await told;
        expect(await connection.client.ping()).to.equal('PONG');
      } finally {
        await connection.close();
      }
    });

    it('rethrows the refusal of a wrong password at once, as the error reply it is', async () => {
      const error = await rejectionOf(connectRedis({ url: server().url.replace('s3cret', 'wrong'), ...timeouts }));
      expect(error.name).to.equal('ReplyError');
      expect(error.message).to.match(/WRONGPASS/);
      const connection = await connectRedis({ url: server().url, ...timeouts });
      await connection.close();
    });
  },
  { password: 's3cret' },
);

describe('redis adapter: which errors mean "Redis is unavailable"', () => {
  const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

  it('every connection-level error, and the transient error replies', () => {
    for (const error of [
      new Error('Connection is closed.'),
      new Error('Command timed out'),
      new Error('Too many Cluster redirections. Last error: ReplyError: TRYAGAIN Multiple keys request during rehashing of slot'),
      reply('LOADING Redis is loading the dataset in memory'),
      reply('CLUSTERDOWN The cluster is down'),
      reply('TRYAGAIN Multiple keys request during rehashing of slot'),
      reply('MOVED 7638 127.0.0.1:7001'),
      reply('ASK 7638 127.0.0.1:7001'),
    ]) {
      expect(isUnavailable(error), error.message).to.equal(true);
    }
  });

  it('a cluster node refusing a script a key that is not on it now (its slot moved), or any command while the cluster is down', () => {
    for (const error of [
      reply('ERR Script attempted to access a non local key in a cluster node script: f6656cc9f8c7d22fe788a21064b120ae890a5460, on @user_script:4.'),
      reply('ERR Script attempted to execute a command while the cluster is down script: f6656cc9f8c7d22fe788a21064b120ae890a5460, on @user_script:4.'),
    ]) {
      expect(isUnavailable(error), error.message).to.equal(true);
    }
  });

  it('never a script error or a wrong argument, which are bugs', () => {
    for (const error of [reply('ERR Error running script'), reply('WRONGTYPE Operation against a key holding the wrong kind of value'), reply('CROSSSLOT Keys in request')]) {
      expect(isUnavailable(error), error.message).to.equal(false);
    }
    expect(isUnavailable('not an error')).to.equal(false);
  });
});
