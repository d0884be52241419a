import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { StoreUnavailableError } from '@tessera/core';
import { describeWithRedis } from '@tessera/testkit/redis';
import { connectRedis, createRedisStores, type RedisConnection } from '@tessera/adapter-redis';
import { rejectionOf } from '@tessera/testkit';

const PHC = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$qLml5cbVCJnSn6RXqEvDxqmLjqzpHRxQvLDkCsD3Lrw';
const OTP_SECRET = 'JBSWY3DPEHPK3PXP';
const systemClock = { now: () => Date.now() };

// Two connections stand for two nodes; redis-cli stands for an operator writing users by hand.
describeWithRedis('RedisUserDirectory: the records in Redis', (server) => {
  const nodes: RedisConnection[] = [];
  let prefix = '';
  const users = (index: number) => createRedisStores(nodes[index]!.client, systemClock, prefix).users;
  const byHand = (username: string, ...fieldsAndValues: string[]) => server().cli('hset', `${prefix}user:${username}`, ...fieldsAndValues);

  before(async () => {
    nodes.push(await connectRedis({ url: server().url, connectTimeoutMs: 2000, commandTimeoutMs: 2000 }), await connectRedis({ url: server().url, connectTimeoutMs: 2000, commandTimeoutMs: 2000 }));
  });
  after(async () => {
    await Promise.all(nodes.splice(0).map((connection) => connection.close()));
  });
  beforeEach(() => {
    prefix = `t${randomBytes(4).toString('hex')}:`;
  });

  it("reads a user written by hand with redis-cli: no attributes means none, a module's fields (the otp module's) handed on as written", async () => {
    byHand('bob', 'passwordHash', PHC);
    byHand('carol', 'password', 'added-by-hand', 'attributes', '{"cn":["Carol"]}', 'otpSecret', OTP_SECRET, 'requireOtp', 'yes');
    expect(await users(1).findByUsername('bob')).to.deep.equal({ username: 'bob', password: { kind: 'hash', phc: PHC }, attributes: {} });
    expect(await users(1).findByUsername('carol')).to.deep.equal({
      username: 'carol',
      password: { kind: 'plain', value: 'added-by-hand' },
      attributes: { cn: ['Carol'] },
      fields: { otpSecret: OTP_SECRET, requireOtp: 'yes' },
    });
  });

  it('fails a lookup of a record it cannot read safely with an error naming the user and the field, never a secret in it', async () => {
    const cases: [string, () => void, RegExp][] = [
      ['no-password', () => byHand('no-password', 'otpSecret', OTP_SECRET, 'requireOtp', 'true'), /neither passwordHash nor password/],
      ['bad-json', () => byHand('bad-json', 'password', 'pw-secret', 'attributes', '{mail: pw-secret'), /attributes that are not a JSON object of string lists/],
      ['single-value', () => byHand('single-value', 'password', 'pw-secret', 'attributes', '{"mail":"a@example.org"}'), /attributes that are not a JSON object of string lists/],
      ['a-string', () => server().cli('set', `${prefix}user:a-string`, '{"password":"pw-secret"}'), /is not a hash/],
    ];
    for (const [username, write, expected] of cases) {
      write();
      const error = await rejectionOf(users(0).findByUsername(username));
      expect(error, username).to.not.be.instanceOf(StoreUnavailableError);
      expect(error.message, username).to.match(expected).and.include(`'${username}'`);
      expect(error.message, username).to.not.include('pw-secret').and.not.include(OTP_SECRET);
    }
  });
});
