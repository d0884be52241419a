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
          serviceId: `^http://localhost:${port}/cas/delegation/callback/.*`,
          attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
        },
      ],
    });
    tessera = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://localhost:${port}` },
      delegation: { providers: [{ id: 'partner-cas', type: 'cas', title: 'Partner CAS', cas: { serverUrl: upstream.url }, attributes: { mail: 'mail', memberOf: 'memberOf' } }] },
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
});
