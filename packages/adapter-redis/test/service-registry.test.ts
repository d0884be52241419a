import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { DENY_ALL_ATTRIBUTES, RETURN_ALL_ATTRIBUTES, RETURN_ALLOWED_ATTRIBUTES } from '@tessera/core';
import { aRegisteredService } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { connectRedis, createRedisStores, RedisKeys, type RedisConnection } from '@tessera/adapter-redis';

const systemClock = { now: () => Date.now() };

// redis-cli stands for the previous version of tessera, which wrote these definitions.
describeWithRedis('RedisServiceRegistry: definitions an earlier version stored', (server) => {
  let connection: RedisConnection;

  before(async () => {
    connection = await connectRedis({ url: server().url, connectTimeoutMs: 2000, commandTimeoutMs: 2000 });
  });
  after(() => connection.close());

  it('reads a release policy stored in the { kind } form as the policy it meant', async () => {
    const prefix = `t${randomBytes(4).toString('hex')}:`;
    const earlier = (id: number, attributeRelease: Record<string, unknown>) =>
      server().cli('hset', new RedisKeys(prefix).services, String(id), JSON.stringify({ ...aRegisteredService({ id, name: `Earlier ${id}` }), attributeRelease }));
    earlier(1, { kind: 'allowed', names: ['mail', 'memberOf'] });
    earlier(2, { kind: 'all' });
    earlier(3, { kind: 'none' });
    const registry = createRedisStores(connection.client, systemClock, prefix).registry;
    const released = (await registry.list()).map((service) => service.attributeRelease);
    expect(released).to.deep.equal([
      { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail', 'memberOf'] },
      { type: RETURN_ALL_ATTRIBUTES },
      { type: DENY_ALL_ATTRIBUTES },
    ]);
    expect((await registry.findById(1))?.attributeRelease).to.deep.equal(released[0]);
  });
});
