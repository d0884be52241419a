import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { StoreUnavailableError, type UserRecord } from '@tessera/core';
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
  const stored = (username: string) => nodes[0]!.client.hgetall(`${prefix}user:${username}`);
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

  it("keeps each user as one hash under the key prefix, fields named as in the configuration's users, with no expiry", async () => {
    await users(0).upsert([
      { username: 'alice', password: { kind: 'hash', phc: PHC }, attributes: { mail: ['alice@example.org'], memberOf: ['staff', 'admins'] }, otp: { secret: OTP_SECRET, required: true } },
      { username: 'demo', password: { kind: 'plain', value: 'Mellon' }, attributes: {} },
    ]);
    expect(await stored('alice')).to.deep.equal({ passwordHash: PHC, attributes: '{"mail":["alice@example.org"],"memberOf":["staff","admins"]}', otpSecret: OTP_SECRET, requireOtp: 'true' });
    expect(await stored('demo')).to.deep.equal({ password: 'Mellon', attributes: '{}' });
    expect(server().cli('--scan', '--pattern', `${prefix}*`).trim().split('\n').sort()).to.deep.equal([`${prefix}user:alice`, `${prefix}user:demo`]);
    expect(server().cli('ttl', `${prefix}user:alice`).trim()).to.equal('-1');
  });

  it('reads a user written by hand with redis-cli: no attributes means none, no requireOtp means a code is optional', async () => {
    byHand('bob', 'passwordHash', PHC);
    byHand('carol', 'password', 'added-by-hand', 'attributes', '{"cn":["Carol"]}', 'otpSecret', OTP_SECRET);
    expect(await users(1).findByUsername('bob')).to.deep.equal({ username: 'bob', password: { kind: 'hash', phc: PHC }, attributes: {} });
    expect(await users(1).findByUsername('carol')).to.deep.equal({
      username: 'carol',
      password: { kind: 'plain', value: 'added-by-hand' },
      attributes: { cn: ['Carol'] },
      otp: { secret: OTP_SECRET, required: false },
    });
  });

  it('replaces a named user whole when nodes upsert at once, and leaves the users it does not name alone', async () => {
    byHand('alice', 'password', 'old', 'attributes', '{"cn":["Old"]}', 'otpSecret', OTP_SECRET, 'requireOtp', 'true');
    byHand('bob', 'password', 'added-by-hand');
    const configured: UserRecord[] = [
      { username: 'alice', password: { kind: 'hash', phc: PHC }, attributes: { cn: ['Alice'] } },
      { username: 'casuser', password: { kind: 'plain', value: 'Mellon' }, attributes: { memberOf: ['staff'] } },
    ];
    await Promise.all([users(0).upsert(configured), users(1).upsert(configured), users(0).upsert(configured)]);
    expect(await stored('alice')).to.deep.equal({ passwordHash: PHC, attributes: '{"cn":["Alice"]}' });
    for (const user of configured) expect(await users(1).findByUsername(user.username)).to.deep.equal(user);
    expect(await users(1).findByUsername('bob')).to.deep.equal({ username: 'bob', password: { kind: 'plain', value: 'added-by-hand' }, attributes: {} });
  });

  it('fails a lookup of a record it cannot read safely with an error naming the user and the field, never a secret in it', async () => {
    const cases: [string, () => void, RegExp][] = [
      ['no-password', () => byHand('no-password', 'otpSecret', OTP_SECRET, 'requireOtp', 'true'), /neither passwordHash nor password/],
      ['bad-json', () => byHand('bad-json', 'password', 'pw-secret', 'attributes', '{mail: pw-secret'), /attributes that are not a JSON object of string lists/],
      ['single-value', () => byHand('single-value', 'password', 'pw-secret', 'attributes', '{"mail":"a@example.org"}'), /attributes that are not a JSON object of string lists/],
      ['yes-otp', () => byHand('yes-otp', 'password', 'pw-secret', 'otpSecret', OTP_SECRET, 'requireOtp', 'yes'), /requireOtp other than true or false/],
      ['no-secret', () => byHand('no-secret', 'password', 'pw-secret', 'requireOtp', 'true'), /requireOtp true but no otpSecret/],
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
