import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import * as client from 'openid-client';
import { describeWithRedis } from '@tessera/testkit/redis';
import type { Tessera } from '../../support/tessera.js';
import { authorizeThroughLoginForm, CLIENT_ID, CLIENT_SECRET, expectOneRedemptionThenRevoked, freePort, REDIRECT_URI, startOidc, tokenRequest } from './support.js';

// docs/modules/oidc.md (Storage): two nodes on one Redis share the provider's records, its keys and
// one issuer: a code issued by A is redeemed at B, and B's refresh token is rotated at A.
describeWithRedis('oidc: two nodes on one Redis', (redis) => {
  let a: Tessera;
  let b: Tessera;
  let config: client.Configuration;
  before(async function () {
    this.timeout(60_000);
    const folder = mkdtempSync(join(tmpdir(), 'tessera-oidc-nodes-'));
    const [portA, portB] = [await freePort(), await freePort()];
    const shared = {
      storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `oidc${randomBytes(4).toString('hex')}:` } },
      login: { keyFile: join(folder, 'login-key.json') },
      oidc: { keyFile: join(folder, 'oidc-keys.json') },
    };
    // A writes the key files; B reads them. Both name A's URL as the issuer, as a load balancer's would be.
    a = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portA, nodeName: 'node-a', publicUrl: `http://127.0.0.1:${portA}` } });
    b = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portB, nodeName: 'node-b', publicUrl: `http://127.0.0.1:${portA}` } });
    config = await client.discovery(new URL(`${a.url}/oidc`), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), { execute: [client.allowInsecureRequests] });
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  const token = (node: Tessera, fields: Record<string, string>) => tokenRequest(node.url, fields);

  it('authorize on A, redeem the code and refresh on B, refresh again on A', async () => {
    const { callback, verifier } = await authorizeThroughLoginForm(config, a.url, REDIRECT_URI, 'openid email offline_access');
    const code = callback.searchParams.get('code');
    expect(code).to.be.a('string');

    const redeemed = await token(b, { grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(redeemed.status).to.equal(200);
    const tokens = (await redeemed.json()) as { access_token: string; refresh_token: string; id_token: string };
    expect(tokens.id_token).to.be.a('string');
    expect((await fetch(`${a.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).to.equal(200);

    const refreshed = (await (await token(b, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).json()) as { refresh_token: string };
    expect(refreshed.refresh_token).to.be.a('string').and.not.equal(tokens.refresh_token);
    const again = await token(a, { grant_type: 'refresh_token', refresh_token: refreshed.refresh_token });
    expect(again.status).to.equal(200);
    const reused = await token(a, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(await reused.json()).to.deep.include({ error: 'invalid_grant' });
  });

  const codeExchange = async () => {
    const { callback, verifier } = await authorizeThroughLoginForm(config, a.url, REDIRECT_URI, 'openid email offline_access');
    return { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier };
  };

  it('one code redeemed at A and at B at once: one node gives tokens, the other invalid_grant, and the tokens given are revoked on both', async () => {
    const exchange = await codeExchange();
    await expectOneRedemptionThenRevoked(await Promise.all([token(a, exchange), token(b, exchange)]), a.url, b.url);
  });

  it('one rotated refresh token refreshed at A and at B at once: one node gives tokens, the other invalid_grant, and the tokens given are revoked on both', async () => {
    const tokens = (await (await token(b, await codeExchange())).json()) as { refresh_token: string };
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token };
    await expectOneRedemptionThenRevoked(await Promise.all([token(a, refresh), token(b, refresh)]), a.url, b.url);
  });
});
