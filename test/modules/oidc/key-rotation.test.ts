import { expect } from 'chai';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as client from 'openid-client';
import { cryptoRandomSource } from '@tessera/core';
import { generateOidcKeySet } from '@tessera/core/modules/oidc';
import type { Tessera } from '../../support/tessera.js';
import { authorizeThroughLoginForm, CLIENT_ID, CLIENT_SECRET, freePort, REDIRECT_URI, startOidc } from './support.js';

// docs/modules/oidc.md: the JWKS publishes the current and the previous signing key, so a rotation
// (tessera oidc generate-keys --rotate FILE) never breaks a token in flight.
describe('oidc: signing key rotation', () => {
  const before = generateOidcKeySet(cryptoRandomSource);
  const after = generateOidcKeySet(cryptoRandomSource, before);
  /** An ID token from tessera started on `keys`, its JWKS and its issuer. */
  async function idTokenAndJwks(keys: typeof before): Promise<{ idToken: string; jwks: JSONWebKeySet; issuer: string }> {
    const port = await freePort();
    const tessera: Tessera = await startOidc({ server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://127.0.0.1:${port}` }, oidc: { keys: JSON.stringify(keys) } });
    try {
      const config = await client.discovery(new URL(`${tessera.url}/oidc`), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), { execute: [client.allowInsecureRequests] });
      const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, REDIRECT_URI, 'openid');
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
      const jwks = (await (await fetch(`${tessera.url}/oidc/jwks`)).json()) as JSONWebKeySet;
      return { idToken: tokens.id_token!, jwks, issuer: `${tessera.url}/oidc` };
    } finally {
      await tessera.close();
    }
  }

  it('a token signed with the previous key still verifies against the JWKS after the rotation; new ones use the new key', async () => {
    const old = await idTokenAndJwks(before);
    expect(decodeProtectedHeader(old.idToken).kid).to.equal(before.keys[0]!.kid);
    expect(old.jwks.keys.map((key) => key.kid)).to.deep.equal([before.keys[0]!.kid]);

    const rotated = await idTokenAndJwks(after);
    expect(rotated.jwks.keys.map((key) => key.kid)).to.deep.equal([after.keys[0]!.kid, before.keys[0]!.kid]);
    expect(rotated.jwks.keys.every((key) => key['d'] === undefined), 'no private part published').to.equal(true);
    expect(decodeProtectedHeader(rotated.idToken).kid).to.equal(after.keys[0]!.kid);
    // Each node names its own URL as the issuer here; the signatures are what the rotation is about.
    for (const { idToken, issuer } of [old, rotated]) {
      const { payload } = await jwtVerify(idToken, createLocalJWKSet(rotated.jwks), { issuer, audience: CLIENT_ID });
      expect(payload.sub).to.equal('casuser');
    }
    const unrotated = generateOidcKeySet(cryptoRandomSource);
    const error = await jwtVerify(old.idToken, createLocalJWKSet({ keys: unrotated.keys.map((key) => ({ kty: key.kty, n: String(key['n']), e: String(key['e']), kid: key.kid })) })).catch((thrown: unknown) => thrown);
    expect(error).to.be.instanceOf(Error);
  });
});
