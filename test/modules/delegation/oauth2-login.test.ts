import { expect } from 'chai';
import { Browser, formOf } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { validate } from '../login/support.js';
import { freePort, startDelegation } from './support.js';
import { CLIENT, startFakeOAuth2 } from './oauth2-upstream.js';

// docs/modules/delegation.md: a plain OAuth 2.0 provider with a profile URL (GitHub-style), a fake started here.
describe('delegation: logging in through a plain OAuth 2.0 provider with a profile URL', () => {
  let fake: Awaited<ReturnType<typeof startFakeOAuth2>>;
  let tessera: Tessera;
  let base: string;
  before(async () => {
    fake = await startFakeOAuth2();
    const port = await freePort();
    base = `http://localhost:${port}/cas`;
    tessera = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://localhost:${port}` },
      delegation: {
        providers: [
          {
            id: 'github',
            type: 'oauth2',
            title: 'GitHub',
            oauth2: { authorizationUrl: `${fake.base}/authorize`, tokenUrl: `${fake.base}/token`, profileUrl: `${fake.base}/user`, clientId: CLIENT.id, clientSecret: CLIENT.secret, scopes: ['read:user'] },
            principalAttribute: 'login',
            attributes: { email: 'mail', id: 'githubId' },
          },
        ],
      },
    });
  });
  after(async () => {
    await tessera?.close();
    fake?.server.close();
  });

  /** The browser presses the button and follows the provider back to tessera: the page it lands on. */
  async function leaveAndComeBack(browser: Browser) {
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    const left = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: 'github' });
    expect(left.status, left.body).to.equal(302);
    const authorize = new URL(left.location!);
    expect(authorize.href.startsWith(`${fake.base}/authorize?`)).to.equal(true);
    expect(authorize.searchParams.get('scope')).to.equal('read:user');
    expect(authorize.searchParams.get('code_challenge_method')).to.equal('S256');
    const answered = await browser.get(authorize.href);
    return browser.get(answered.location!);
  }

  it('goes to the authorization URL (PKCE, state), exchanges the code, reads the profile and comes back with a session; the profile’s login is the user', async () => {
    const browser = new Browser();
    const back = await leaveAndComeBack(browser);
    expect(back.status, back.body).to.equal(200);
    const landing = await browser.submit(back);
    expect(landing.status, landing.body).to.equal(302);
    const validated = await validate(base, APP, new URL(landing.location!).searchParams.get('ticket')!);
    expect(validated.user).to.equal('octocat');
    expect(validated.attributes?.['mail']).to.deep.equal(['octocat@github.example']);
    expect(validated.attributes?.['githubId']).to.deep.equal(['583231']);
    expect(validated.attributes?.['delegatedProvider']).to.deep.equal(['github']);
  });

  it('a refusal of the provider is a page (401), a profile URL that is down one too (502); no session either way', async () => {
    fake.refuse.next = true;
    const refusedBrowser = new Browser();
    const refused = await leaveAndComeBack(refusedBrowser);
    fake.refuse.next = false;
    expect(refused.status, refused.body).to.equal(401);
    expect(await refusedBrowser.cookie(base, 'TGC')).to.equal(undefined);

    fake.profileDown.next = true;
    const downBrowser = new Browser();
    const down = await leaveAndComeBack(downBrowser);
    fake.profileDown.next = false;
    expect(down.status, down.body).to.equal(502);
    expect(await downBrowser.cookie(base, 'TGC')).to.equal(undefined);
  });
});
