import { expect } from 'chai';
import * as client from 'openid-client';
import type { Tessera } from '../../support/tessera.js';
import { authorizeThroughLoginForm, CLIENT_ID, CLIENT_SECRET, expectOneRedemptionThenRevoked, REDIRECT_URI, startOidc, tokenRequest } from './support.js';

// docs/modules/oidc.md (Codes and refresh tokens are used once): two token requests for one code, or one
// rotated refresh token, at the same moment get tokens once; the other is refused and the grant revoked.
// One node on the memory storage serves the two one after the other (nothing between a code's read and
// its consume waits for I/O there), so the second meets a consumed code: what the client sees is pinned
// here, the race itself where reads wait on the network (two-nodes.test.ts, the adapter's unit test).
describe('oidc: a code or a rotated refresh token redeemed by two requests at once, on the memory storage', () => {
  let tessera: Tessera;
  let config: client.Configuration;
  before(async () => {
    tessera = await startOidc();
    config = await client.discovery(new URL(`${tessera.url}/oidc`), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), { execute: [client.allowInsecureRequests] });
  });
  after(() => tessera.close());

  const codeExchange = async () => {
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, REDIRECT_URI, 'openid email offline_access');
    return { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier };
  };

  it('one code, two token requests at once: one gets tokens, the other invalid_grant, and the tokens given are revoked', async () => {
    const exchange = await codeExchange();
    await expectOneRedemptionThenRevoked(await Promise.all([tokenRequest(tessera.url, exchange), tokenRequest(tessera.url, exchange)]), tessera.url);
  });

  it('one rotated refresh token, two refreshes at once: one gets tokens, the other invalid_grant, and the tokens given are revoked', async () => {
    const tokens = (await (await tokenRequest(tessera.url, await codeExchange())).json()) as { access_token: string; refresh_token: string };
    expect(tokens.refresh_token).to.be.a('string');
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token };
    await expectOneRedemptionThenRevoked(await Promise.all([tokenRequest(tessera.url, refresh), tokenRequest(tessera.url, refresh)]), tessera.url);
    expect((await fetch(`${tessera.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).to.equal(401);
  });

  it('a code redeemed, then again: the replay is refused in the same words, and the tokens of the first are revoked', async () => {
    const exchange = await codeExchange();
    const first = await tokenRequest(tessera.url, exchange);
    await expectOneRedemptionThenRevoked([first, await tokenRequest(tessera.url, exchange)], tessera.url);
  });
});
