import { expect } from 'chai';
import * as client from 'openid-client';
import { FakeDatabase } from '@tessera/testkit/mongo';
import type { StartOptions } from '@tessera/cli-server';
import type { Tessera } from '../../support/tessera.js';
import { authorizeThroughLoginForm, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, RP_SERVICE, startOidc } from './support.js';

const ONCE_ID = 'rp-once';
const ONCE_SECRET = 'rp-once-secret-of-at-least-16';

/** A client that gets no refresh tokens: its code exchange is all it ever does with a grant. */
const ONCE_SERVICE = { ...RP_SERVICE, id: 11, name: 'No refresh tokens', clientId: ONCE_ID, clientSecret: ONCE_SECRET, generateRefreshToken: false, scopes: ['java.util.HashSet', ['openid', 'email']] };

// What the provider keeps for a code exchange: nothing a client cannot use later.
describe('oidc: records kept for a code exchange', () => {
  let tessera: Tessera;
  let database: FakeDatabase;
  before(async () => {
    database = new FakeDatabase();
    tessera = await startOidc({ storage: { type: 'mongo', mongo: { uri: 'mongodb://fake.invalid' } }, services: [RP_SERVICE, ONCE_SERVICE] }, { mongoDatabase: database as unknown as NonNullable<StartOptions['mongoDatabase']> });
  });
  after(() => tessera.close());

  const redirectUriRecords = async () => (await database.collection('records').find({}).toArray()).map((record) => String(record['_id'])).filter((id) => id.startsWith('oidc.grant-redirect-uri:'));

  async function exchange(clientId: string, secret: string, scope: string): Promise<{ access_token: string; refresh_token?: string }> {
    const config = await client.discovery(new URL(`${tessera.url}/oidc`), clientId, secret, client.ClientSecretBasic(secret), { execute: [client.allowInsecureRequests] });
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, REDIRECT_URI, scope);
    return client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  }

  it("a client without refresh tokens: no record of its authorization's redirect URI", async () => {
    const tokens = await exchange(ONCE_ID, ONCE_SECRET, 'openid email');
    expect(tokens.refresh_token).to.equal(undefined);
    expect(await redirectUriRecords()).to.deep.equal([]);
  });

  it('a client with refresh tokens: its redirect URI kept for the profile of the access tokens its refresh tokens get', async () => {
    const tokens = await exchange(CLIENT_ID, CLIENT_SECRET, 'openid email offline_access');
    expect(tokens.refresh_token).to.be.a('string');
    expect(await redirectUriRecords()).to.have.length(1);
  });
});
