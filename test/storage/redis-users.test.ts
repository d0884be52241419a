import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { Argon2PasswordHasher } from '@tessera/core';
import { describeWithRedis } from '@tessera/testkit/redis';
import { rememberSecret } from '../support/log-canary.js';
import { APP, form, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';

const OTP_SECRET = new Secret({ size: 20 }).base32;

/** The CAS 3 JSON validation answer's user and attributes, or its failure code. */
async function validated(base: string, ticket: string): Promise<{ user?: string; attributes?: Record<string, unknown>; code?: string }> {
  const response = await fetch(`${base}/p3/serviceValidate?${new URLSearchParams({ service: APP, ticket, format: 'JSON' }).toString()}`);
  const { serviceResponse } = (await response.json()) as { serviceResponse: { authenticationSuccess?: { user: string; attributes: Record<string, unknown> }; authenticationFailure?: { code: string } } };
  return serviceResponse.authenticationSuccess ?? { code: serviceResponse.authenticationFailure?.code ?? 'none' };
}

// Users an operator writes to Redis with redis-cli, as docs/storage.md's Redis section shows, on a server
// composed with storage.type redis whose configuration does not name them.
describeWithRedis('users kept in Redis, on a server with storage.type redis', (redis) => {
  const prefix = `e2e${randomBytes(4).toString('hex')}:`;
  const byHand = (username: string, ...fieldsAndValues: string[]) => redis().cli('hset', `${prefix}user:${username}`, ...fieldsAndValues);
  let passwordHash: string;
  let tessera: Tessera;

  before(async () => {
    passwordHash = await new Argon2PasswordHasher().hash('Bob-pass-1');
    rememberSecret(passwordHash, "bob's password hash, written to Redis by hand");
    rememberSecret(OTP_SECRET, "dora's OTP secret, written to Redis by hand");
    byHand('bob', 'passwordHash', passwordHash, 'attributes', '{"memberOf":["staff","alumni"],"mail":["bob@example.org"]}');
    // alice is configured (password secret, memberOf students): a record of that name in Redis is never read.
    rememberSecret('alice-in-redis', "the password of a record in Redis named as a configured user");
    byHand('alice', 'password', 'alice-in-redis', 'attributes', '{"memberOf":["admins"]}');
    tessera = await startTessera({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: prefix } }, modules: ['rest', 'otp'], logging: { level: 'info' } });
  });
  after(() => tessera?.close());

  it('a user written to Redis before the start, not in the configuration, logs in over REST and its attributes reach the service', async () => {
    const tgt = await login(tessera.url, 'bob', 'Bob-pass-1');
    const { user, attributes } = await validated(tessera.url, await serviceTicket(tessera.url, tgt));
    expect(user).to.equal('bob');
    expect(attributes).to.deep.include({ memberOf: ['staff', 'alumni'], mail: ['bob@example.org'] });
    expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'bob', password: 'Bob-pass-2' }))).status).to.equal(401);
    expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'Bob', password: 'Bob-pass-1' }))).status, 'usernames match exactly').to.equal(401);
  });

  it('a user written while the server runs logs in at once; one changed or removed by hand is changed or gone at once', async () => {
    expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'carol', password: 'Carol-pass' }))).status).to.equal(401);
    byHand('carol', 'password', 'Carol-pass');
    await login(tessera.url, 'carol', 'Carol-pass');
    byHand('carol', 'password', 'Carol-pass-2');
    expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'carol', password: 'Carol-pass' }))).status).to.equal(401);
    await login(tessera.url, 'carol', 'Carol-pass-2');
    redis().cli('del', `${prefix}user:carol`);
    expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'carol', password: 'Carol-pass-2' }))).status).to.equal(401);
  });

  it('a user written with requireOtp logs in only with the current code of its otpSecret', async () => {
    byHand('dora', 'password', 'Dora-pass', 'otpSecret', OTP_SECRET, 'requireOtp', 'true');
    expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'dora', password: 'Dora-pass' }))).status).to.equal(401);
    const otp = TOTP.generate({ secret: Secret.fromBase32(OTP_SECRET), timestamp: Date.now() });
    expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'dora', password: 'Dora-pass', otp }))).status).to.equal(201);
  });

  it('a configured user is the configuration\'s: a record of its name in Redis neither logs it in nor changes its attributes', async () => {
    expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'alice', password: 'alice-in-redis' }))).status).to.equal(401);
    const { user, attributes } = await validated(tessera.url, await serviceTicket(tessera.url, await login(tessera.url, 'alice', 'secret')));
    expect(user).to.equal('alice');
    expect(attributes?.['memberOf']).to.deep.equal(['students']);
  });

  it('writes no configured user into Redis at start, and never logs a stored password hash or OTP secret', () => {
    expect(redis().cli('exists', `${prefix}user:casuser`).trim()).to.equal('0');
    expect(redis().cli('hget', `${prefix}user:alice`, 'password').trim()).to.equal('alice-in-redis');
    expect(tessera.logs.join('\n')).to.include('Redis storage ready').and.not.include(passwordHash).and.not.include(OTP_SECRET);
  });
});
