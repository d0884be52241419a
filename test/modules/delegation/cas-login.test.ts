import { expect } from 'chai';
import { Browser, formOf } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { startLogin, validate } from '../login/support.js';
import { freePort, startDelegation } from './support.js';

// docs/modules/delegation.md: a login through an upstream CAS server, here a second tessera (CAS 3 validation).
describe('delegation: logging in through an upstream CAS server (another tessera)', () => {
  let upstream: Tessera;
  let tessera: Tessera;
  let base: string;
  before(async () => {
    const port = await freePort();
    base = `http://localhost:${port}/cas`;
    upstream = await startLogin({
      users: [{ username: 'bob', password: 'Builder', attributes: { mail: ['bob@partner.example'], memberOf: ['partners'] } }],
      services: [
        {
          '@class': 'org.apereo.cas.services.CasRegisteredService',
          id: 1,
          name: 'Our tessera',
          // The way back from its login and from its logout.
          serviceId: `^http://localhost:${port}/cas/delegation/(callback/|logout\\?).*`,
          attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
        },
      ],
    });
    tessera = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://localhost:${port}` },
      delegation: { providers: [{ id: 'partner-cas', type: 'cas', title: 'Partner CAS', cas: { serverUrl: upstream.url }, attributes: { mail: 'mail', memberOf: 'memberOf' }, logout: true }] },
    });
  });
  after(async () => {
    await tessera?.close();
    await upstream?.close();
  });

  it('goes to the upstream’s /login, validates its ticket (CAS 3) and comes back with a session; a ticket for another service URL is refused', async () => {
    const browser = new Browser();
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    const left = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: 'partner-cas' });
    expect(left.status, left.body).to.equal(302);
    const upstreamLogin = new URL(left.location!);
    expect(upstreamLogin.href.startsWith(`${upstream.url}/login?service=`)).to.equal(true);
    const service = new URL(upstreamLogin.searchParams.get('service')!);
    expect(service.searchParams.get('state')).to.have.length.greaterThan(20);
    const form = await browser.get(upstreamLogin.href);
    const answered = await browser.submit(form, { username: 'bob', password: 'Builder' });
    expect(answered.status, answered.body).to.equal(302);
    const callback = new URL(answered.location!);
    expect(callback.searchParams.get('ticket')).to.match(/^ST-/);
    const back = await browser.get(callback.href);
    expect(back.status, back.body).to.equal(200);
    const landing = await browser.submit(back);
    expect(landing.status, landing.body).to.equal(302);
    const validated = await validate(base, APP, new URL(landing.location!).searchParams.get('ticket')!);
    expect(validated.user).to.equal('bob');
    expect(validated.attributes?.['mail']).to.deep.equal(['bob@partner.example']);
    expect(validated.attributes?.['delegatedProvider']).to.deep.equal(['partner-cas']);

    // A forged ticket on a fresh login: the upstream refuses it, the page says so.
    const other = new Browser();
    const again = await other.get(`${base}/login`);
    const leftAgain = await other.post(`${base}/delegation/login`, { ...formOf(again.body).hidden, delegatedProvider: 'partner-cas' });
    const serviceAgain = new URL(new URL(leftAgain.location!).searchParams.get('service')!);
    serviceAgain.searchParams.set('ticket', 'ST-1-forged-e2e');
    const refused = await other.get(serviceAgain.href);
    expect(refused.status, refused.body).to.equal(401);
    expect(await other.cookie(base, 'TGC')).to.equal(undefined);
  });

  it('logout on: after tessera’s logout, the browser goes to the upstream’s /logout with the way back as its service, and comes back to the logged-out page; the upstream asks for the password again', async () => {
    const browser = new Browser();
    const page = await browser.get(`${base}/login`);
    const left = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: 'partner-cas' });
    const answered = await browser.submit(await browser.get(left.location!), { username: 'bob', password: 'Builder' });
    const landing = await browser.submit(await browser.get(answered.location!));
    expect(landing.status, landing.body).to.equal(200);
    expect(await browser.cookie(base, 'TGC')).to.not.equal(undefined);

    const logout = await browser.get(`${base}/logout`);
    expect(logout.status, logout.body).to.equal(302);
    const upstreamLogout = new URL(logout.location!);
    expect(`${upstreamLogout.origin}${upstreamLogout.pathname}`).to.equal(`${upstream.url}/logout`);
    const way = new URL(upstreamLogout.searchParams.get('service')!);
    expect(`${way.origin}${way.pathname}`).to.equal(`${base}/delegation/logout`);
    expect(way.searchParams.get('state')).to.match(/^[A-Za-z0-9_-]{43}$/);
    // tessera's session ended first.
    expect((await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`)).status).to.equal(200);

    // The upstream (a tessera) ends its session and follows the registered way back.
    const atUpstream = await browser.get(upstreamLogout.href);
    expect(atUpstream.status, atUpstream.body).to.equal(302);
    expect(atUpstream.location).to.equal(way.href);
    const back = await browser.get(atUpstream.location!);
    expect(back.location).to.equal(`${base}/logout`);
    const loggedOut = await browser.get(back.location!);
    expect(loggedOut.status).to.equal(200);
    // Its session is gone: logging in there asks for the password again.
    const again = await browser.get(left.location!);
    expect(again.status).to.equal(200);
    expect(again.body).to.include('name="password"');
  });
});
