import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { cryptoRandomSource } from '../src/index.js';
import { generateOidcKeySet, oidcKeySetProblem, oidcSigningAlgorithms } from '../src/modules/oidc/index.js';

/** A private EC JWK of the curve, named and marked for `alg`. */
function ecKey(kid: string, alg: string, namedCurve: string): Record<string, string> {
  return { ...(generateKeyPairSync('ec', { namedCurve }).privateKey.export({ format: 'jwk' }) as Record<string, string>), kid, alg, use: 'sig' };
}

describe('oidc key set: RS256 keys first, then EC keys a client may name', () => {
  const rsa = generateOidcKeySet(cryptoRandomSource);
  const cookieSecrets = rsa.cookieSecrets;

  it('takes the current RS256 key, the previous one and one EC key per algorithm of its curve; advertises their algorithms', () => {
    const set = { keys: [...generateOidcKeySet(cryptoRandomSource, rsa).keys, ecKey('EC', 'ES512', 'P-521'), ecKey('ec256', 'ES256', 'P-256')], cookieSecrets };
    expect(oidcKeySetProblem(set)).to.equal(undefined);
    expect(oidcSigningAlgorithms(set as never)).to.deep.equal(['RS256', 'ES512', 'ES256']);
  });

  it('refuses an EC key first, a curve that is not its algorithm’s, a second key of one EC algorithm, a third RS256 key and a kid twice', () => {
    const [current] = rsa.keys;
    const other = generateOidcKeySet(cryptoRandomSource).keys[0]!;
    expect(oidcKeySetProblem({ keys: [ecKey('EC', 'ES512', 'P-521')], cookieSecrets })).to.equal('keys[0] is an EC key: the current RS256 key comes first');
    expect(oidcKeySetProblem({ keys: [current, ecKey('EC', 'ES512', 'P-256')], cookieSecrets })).to.match(/^keys\[1\] is neither an RS256 key nor an EC key/);
    expect(oidcKeySetProblem({ keys: [current, ecKey('a', 'ES384', 'P-384'), ecKey('b', 'ES384', 'P-384')], cookieSecrets })).to.equal('keys[2] is a second ES384 key: one EC key per algorithm');
    expect(oidcKeySetProblem({ keys: [current, other, { ...other, kid: 'third' }], cookieSecrets })).to.match(/^keys\[2\] is a third RS256 key/);
    expect(oidcKeySetProblem({ keys: [current, ecKey(current!.kid, 'ES256', 'P-256')], cookieSecrets })).to.match(/^keys\[1\] has the kid .* of another key/);
  });

  it('a rotation keeps the EC keys and drops the RS256 key before the previous one', () => {
    const withEc = { keys: [...rsa.keys, ecKey('EC', 'ES512', 'P-521')], cookieSecrets };
    const rotated = generateOidcKeySet(cryptoRandomSource, withEc as never);
    expect(rotated.keys.map((key) => key.kid)).to.deep.equal([rotated.keys[0]!.kid, rsa.keys[0]!.kid, 'EC']);
    expect(oidcKeySetProblem(rotated)).to.equal(undefined);
  });
});
