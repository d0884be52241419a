import { expect } from 'chai';
import { CompactSign, EncryptJWT, compactDecrypt, compactVerify, decodeProtectedHeader } from 'jose';
import { InvalidConfigurationError, InvalidTokenError } from '@tessera/core';
import { CasJwtCodec, generateTokenKeys, verifyJwtServiceTicket, type ContentEncryptionAlgorithm, type TokenKeys } from '@tessera/core/modules/tokens';
import { FixedClock } from '../../fakes.js';

const ALGORITHMS: readonly ContentEncryptionAlgorithm[] = ['A128CBC-HS256', 'A256CBC-HS512', 'A256GCM'];
const SERVICE = 'https://app.example.org/home';

function keys(encryptionAlgorithm: ContentEncryptionAlgorithm = 'A128CBC-HS256'): TokenKeys {
  return { ...generateTokenKeys(encryptionAlgorithm, { bytes: (size) => crypto.getRandomValues(new Uint8Array(size)) }), encryptionAlgorithm };
}

function claims(clock: FixedClock, lifetimeSeconds = 10) {
  const now = Math.floor(clock.now() / 1000);
  return { jti: 'ST-1-abc-test', sub: 'casuser', aud: SERVICE, iat: now, exp: now + lifetimeSeconds, memberOf: ['staff', 'faculty'] };
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the token to be refused'),
    (error: unknown) => error,
  );
}

/** The JWE of a token, re-signed with the given header and key: what an attacker can forge. */
async function resign(token: string, header: { alg: string }, key: Uint8Array): Promise<string> {
  const jwe = token.split('.')[1]!;
  return new CompactSign(Buffer.from(jwe, 'base64url')).setProtectedHeader(header).sign(key);
}

describe('JWT ticket crypto, CAS ENCRYPT_AND_SIGN (docs/protocol.md §6)', () => {
  for (const algorithm of ALGORITHMS) {
    it(`reads back with the documented CAS consumer steps (${algorithm})`, async () => {
      const clock = new FixedClock();
      const pair = keys(algorithm);
      const token = await new CasJwtCodec(pair, clock).encode(claims(clock));

      expect(decodeProtectedHeader(token)).to.deep.equal({ alg: 'HS512', typ: 'JWT' });
      const { payload } = await compactVerify(token, new TextEncoder().encode(pair.signingKey), { algorithms: ['HS512'] });
      const jwe = new TextDecoder().decode(payload);
      expect(decodeProtectedHeader(jwe)).to.include({ alg: 'dir', enc: algorithm });
      const { plaintext } = await compactDecrypt(jwe, Buffer.from(pair.encryptionKey, 'base64url'));
      expect(JSON.parse(new TextDecoder().decode(plaintext))).to.deep.equal(claims(clock));
    });
  }

  it('reads a token as Apereo CAS writes it: a deflated JWE (jose4j enableDefaultCompression, zip DEF)', async () => {
    const clock = new FixedClock();
    const pair = keys();
    const jwe = await new EncryptJWT(claims(clock))
      .setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256', zip: 'DEF' })
      .encrypt(Buffer.from(pair.encryptionKey, 'base64url'));
    const token = await new CompactSign(new TextEncoder().encode(jwe)).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(new TextEncoder().encode(pair.signingKey));
    expect(await new CasJwtCodec(pair, clock).decode(token)).to.deep.equal(claims(clock));
  });

  it('verifies a JWT ST for its service with the exported helper', async () => {
    const clock = new FixedClock();
    const codec = new CasJwtCodec(keys(), clock);
    const token = await codec.encode(claims(clock));
    expect(await verifyJwtServiceTicket(codec, token, SERVICE)).to.include({ jti: 'ST-1-abc-test', sub: 'casuser' });
    expect(await refusal(verifyJwtServiceTicket(codec, token, 'https://other.example.org/'))).to.be.instanceOf(InvalidTokenError);
  });

  it('refuses an expired token: the clock moved past exp', async () => {
    const clock = new FixedClock();
    const codec = new CasJwtCodec(keys(), clock);
    const token = await codec.encode(claims(clock, 10));
    clock.advanceSeconds(11);
    expect(await refusal(codec.decode(token))).to.be.instanceOf(InvalidTokenError);
  });

  it('refuses a tampered token, and one made with other keys', async () => {
    const clock = new FixedClock();
    const codec = new CasJwtCodec(keys(), clock);
    const token = await codec.encode(claims(clock));
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${payload.slice(0, 40)}${payload[40] === 'A' ? 'B' : 'A'}${payload.slice(41)}`;
    expect(await refusal(codec.decode(`${header}.${flipped}.${signature}`))).to.be.instanceOf(InvalidTokenError);

    const foreign = await new CasJwtCodec(keys(), clock).encode(claims(clock));
    expect(await refusal(codec.decode(foreign))).to.be.instanceOf(InvalidTokenError);
  });

  it('refuses alg none and algorithm confusion (HS256 with the same key), even with the right JWE inside', async () => {
    const clock = new FixedClock();
    const pair = keys();
    const codec = new CasJwtCodec(pair, clock);
    const token = await codec.encode(claims(clock));
    const [, payload] = token.split('.') as [string, string];
    const unsecured = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect(await refusal(codec.decode(unsecured))).to.be.instanceOf(InvalidTokenError);
    const hs256 = await resign(token, { alg: 'HS256' }, new TextEncoder().encode(pair.signingKey));
    expect(await refusal(codec.decode(hs256))).to.be.instanceOf(InvalidTokenError);
    // The same forgery with HS512 passes: the refusal above is the pinning, not a broken re-signing.
    const hs512 = await resign(token, { alg: 'HS512' }, new TextEncoder().encode(pair.signingKey));
    expect(await codec.decode(hs512)).to.include({ sub: 'casuser' });
  });

  it('refuses a validly signed token whose JWE uses another content encryption', async () => {
    const clock = new FixedClock();
    const pair = keys('A128CBC-HS256');
    const gcmKey = Buffer.from(pair.encryptionKey, 'base64url');
    const jwe = await new EncryptJWT(claims(clock)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(gcmKey);
    const token = await new CompactSign(new TextEncoder().encode(jwe)).setProtectedHeader({ alg: 'HS512' }).sign(new TextEncoder().encode(pair.signingKey));
    expect(await refusal(new CasJwtCodec(pair, clock).decode(token))).to.be.instanceOf(InvalidTokenError);
  });

  it('refuses keys of the wrong size at construction, naming the setting', () => {
    const clock = new FixedClock();
    const good = keys('A128CBC-HS256');
    expect(() => new CasJwtCodec({ ...good, signingKey: 'short' }, clock))
      .to.throw(InvalidConfigurationError)
      .with.property('setting', 'tokens.signingKey');
    expect(() => new CasJwtCodec({ ...good, encryptionAlgorithm: 'A256CBC-HS512' }, clock))
      .to.throw(InvalidConfigurationError, 'expected 64 bytes for A256CBC-HS512, got 32')
      .with.property('setting', 'tokens.encryptionKey');
    expect(() => new CasJwtCodec({ ...good, encryptionKey: 'not base64url!' }, clock))
      .to.throw(InvalidConfigurationError)
      .with.property('setting', 'tokens.encryptionKey');
  });
});
