import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import * as client from 'openid-client';
import { describeWithRedis } from '@tessera/testkit/redis';
import type { Tessera } from '../../support/tessera.js';
import { authorizeThroughLoginForm, freePort, OAUTH_APP, startOidc } from './support.js';

const REDIRECT = 'https://app.example.org/oauth/callback';

// docs/modules/oidc.md (OAuth 2.0 clients, Storage): two nodes on one Redis serve an OAuth client's flow
// between them; the redirect URI its profile names after a refresh is a record of the shared store.
describeWithRedis('oidc: an OAuth 2.0 client across two nodes on one Redis', (redis) => {
  let a: Tessera;
  let b: Tessera;
  before(async function () {
    this.timeout(60_000);
    const folder = mkdtempSync(join(tmpdir(), 'tessera-oauth-nodes-'));
    const [portA, portB] = [await freePort(), await freePort()];
    const shared = {
      storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `oauth${randomBytes(4).toString('hex')}:` } },
      services: [OAUTH_APP],
      login: { keyFile: join(folder, 'login-key.json') },
      oidc: { keyFile: join(folder, 'oidc-keys.json') },
    };
    a = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portA, nodeName: 'node-a', publicUrl: `http://127.0.0.1:${portA}` } });
    b = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portB, nodeName: 'node-b', publicUrl: `http://127.0.0.1:${portA}` } });
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  /** openid-client as a plain OAuth 2.0 client of `node`'s /oauth2.0 endpoints. */
  const configFor = (node: Tessera) => {
    const metadata = { issuer: `${a.url}/oidc`, authorization_endpoint: `${node.url}/oauth2.0/authorize`, token_endpoint: `${node.url}/oauth2.0/token` };
    const config = new client.Configuration(metadata, OAUTH_APP.clientId, OAUTH_APP.clientSecret, client.ClientSecretBasic(OAUTH_APP.clientSecret));
    client.allowInsecureRequests(config);
    return config;
  };

  it('authorize on A, redeem and refresh on B, the profile on A names the user, the client and the redirect URI', async () => {
    const { callback, verifier } = await authorizeThroughLoginForm(configFor(a), a.url, REDIRECT, '');
    const tokens = await client.authorizationCodeGrant(configFor(b), callback, { pkceCodeVerifier: verifier });
    const refreshed = await client.refreshTokenGrant(configFor(b), tokens.refresh_token!);
    expect(refreshed.refresh_token).to.equal(tokens.refresh_token);
    const answer = await fetch(`${a.url}/oauth2.0/profile`, { headers: { authorization: `Bearer ${refreshed.access_token}` } });
    expect(await answer.json()).to.deep.equal({ id: 'casuser', client_id: 'oauth-app', service: REDIRECT, attributes: { email: ['casuser@example.org'], name: ['CAS User'] } });
  });
});
