import { expect } from 'chai';
import { StoreUnavailableError } from '@tessera/core';
import { REDIS_TEST_TIMEOUTS, describeWithRedis, freshKeyPrefix, twoNodeConnections } from '@tessera/testkit/redis';
import { connectRedis, createRedisStores } from '@tessera/adapter-redis';
import { rejectionOf } from '@tessera/testkit';

const PHC = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$qLml5cbVCJnSn6RXqEvDxqmLjqzpHRxQvLDkCsD3Lrw';
const OTP_SECRET = 'JBSWY3DPEHPK3PXP';
const systemClock = { now: () => Date.now() };

// Two connections stand for two nodes; redis-cli stands for an operator writing users by hand.
describeWithRedis('RedisUserDirectory: the records in Redis', (server) => {
  const node = twoNodeConnections(() => connectRedis({ url: server().url, ...REDIS_TEST_TIMEOUTS }));
  let prefix = '';
  const users = (index: 0 | 1) => createRedisStores(node(index).client, systemClock, prefix).users;
  const byHand = (username: string, ...fieldsAndValues: string[]) => server().cli('hset', `${prefix}user:${username}`, ...fieldsAndValues);

  beforeEach(() => {
    prefix = freshKeyPrefix();
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
