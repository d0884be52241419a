import { expect } from 'chai';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { FakeDatabase } from '@tessera/testkit/mongo';
import type { StartOptions } from '@tessera/cli-server';
import { Browser, headingOf } from '../../support/browser.js';
import { form, type Tessera } from '../../support/tessera.js';
import { CLIENT_ID, CLIENT_SECRET, follow, logoutReceiver, REDIRECT_URI, RP_SERVICE, startOidc } from './support.js';

const BACK_CHANNEL_REDIRECT = 'https://bc.example.org/callback';

// docs/modules/oidc.md: the provider's logins on the session of /login, its login callback a service
// the registry answers without storing it, OIDC clients no CAS services, CAS logouts ending OIDC sessions.
describe('oidc: one session with CAS', () => {
  let tessera: Tessera;
  let database: FakeDatabase;
  let receiver: Awaited<ReturnType<typeof logoutReceiver>>;
  let issuer: string;
  let rp: client.Configuration;
  let bc: client.Configuration;

  before(async () => {
    receiver = await logoutReceiver();
    database = new FakeDatabase();
    const backChannelClient = {
      ...RP_SERVICE,
      id: 11,
      name: 'Back-channel relying party',
      serviceId: '^https://bc\\.example\\.org/callback$',
      clientId: 'bc',
      logoutType: 'BACK_CHANNEL',
      logoutUrl: receiver.url,
    };
    tessera = await startOidc(
      { storage: { type: 'mongo', mongo: { uri: 'mongodb://fake.invalid' } }, services: [RP_SERVICE, backChannelClient], oidc: { fetchPrivateAddresses: true } },
      { mongoDatabase: database as unknown as NonNullable<StartOptions['mongoDatabase']> },
    );
    issuer = `${tessera.url}/oidc`;
    const options = { execute: [client.allowInsecureRequests] };
    rp = await client.discovery(new URL(issuer), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), options);
    bc = await client.discovery(new URL(issuer), 'bc', CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), options);
  });
  after(async () => {
    await tessera.close();
    receiver.server.close();
  });

  /** The browser asks for a code for `config`'s client, logging in with the form if it is shown; the code's callback URL. */
  async function authorize(browser: Browser, config: client.Configuration, redirectUri: string, prompt?: string): Promise<URL> {
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      ...(prompt !== undefined && { prompt }),
    });
    let visit = await follow(browser, await browser.get(url.href), tessera.url);
    if (visit.status === 200 && headingOf(visit.body) === 'Log in') {
      visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), tessera.url);
    }
    expect(visit.location, visit.body).to.be.a('string');
    return new URL(visit.location!);
  }

  it('serves the login callback service from its declaration: an OIDC login works, and the store holds no service of its making', async () => {
    const callback = await authorize(new Browser(), rp, REDIRECT_URI);
    expect(callback.searchParams.get('code')).to.be.a('string');
    const stored = await database.collection('services').find({}).toArray();
    expect(stored.map((service) => service['_id'])).to.have.members([RP_SERVICE.id, 11]);
  });

  it('grants no CAS ticket for an OIDC client: /login?service= and REST refuse a URL only its redirect pattern covers', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(REDIRECT_URI)}`);
    expect(page.status).to.not.equal(302);
    expect(page.location ?? '').to.not.include('ticket=');
    const tgt = await (await fetch(`${tessera.url}/v1/tickets`, { ...form({ username: 'casuser', password: 'Mellon' }), headers: { ...form({}).headers, accept: 'text/plain' } })).text();
    const st = await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: REDIRECT_URI }));
    expect(st.status).to.not.equal(200);
    expect(await st.text()).to.not.match(/^ST-/);
  });

  it('a CAS /logout ends the OIDC session: back-channel logout tokens that verify against the JWKS, then prompt=none is login_required', async () => {
    const browser = new Browser();
    await authorize(browser, rp, REDIRECT_URI);
    const code = await authorize(browser, bc, BACK_CHANNEL_REDIRECT);
    expect(code.searchParams.get('code')).to.be.a('string');
    receiver.tokens.length = 0;

    const logout = await browser.get(`${tessera.url}/logout`);
    expect(logout.status).to.be.lessThan(400);

    expect(receiver.tokens).to.have.length(1);
    const { payload } = await jwtVerify(receiver.tokens[0]!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: 'bc' });
    expect(payload.sub).to.equal('casuser');
    expect(payload.sid).to.be.a('string');
    expect(payload['events']).to.have.property('http://schemas.openid.net/event/backchannel-logout');

    const again = await authorize(browser, rp, REDIRECT_URI, 'none');
    expect(again.searchParams.get('error')).to.equal('login_required');
    const actions = tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).map((line) => [line['action'], line['client'], line['who']]);
    expect(actions).to.deep.include.members([
      ['oidc.backchannel.delivered', 'bc', 'casuser'],
      ['oidc.logout', undefined, 'casuser'],
    ]);
  });

  it('DELETE /v1/tickets/{tgt} of the browser\'s TGT ends its OIDC session too', async () => {
    const browser = new Browser();
    await authorize(browser, bc, BACK_CHANNEL_REDIRECT);
    receiver.tokens.length = 0;
    const links = await database.collection('records').find({ namespace: 'oidc.session-tgt' }).toArray();
    const tgt = links.map((link) => link['group'] as string).find((id) => id !== undefined);
    expect(tgt).to.match(/^TGT-/);

    // Every link is to a TGT some test logged in with; the ones already ended are gone with their sessions.
    for (const id of new Set(links.map((link) => link['group'] as string))) expect((await fetch(`${tessera.url}/v1/tickets/${id}`, { method: 'DELETE' })).status).to.be.lessThan(300);

    expect(receiver.tokens).to.have.length(1);
    const again = await authorize(browser, bc, BACK_CHANNEL_REDIRECT, 'none');
    expect(again.searchParams.get('error')).to.equal('login_required');
  });
});
