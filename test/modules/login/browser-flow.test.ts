import { expect } from 'chai';
import { APP, type Tessera } from '../../support/tessera.js';
import { Browser, formOf, headingOf, messageOf, ticketOf } from '../../support/browser.js';
import { logIn, OTHER, startLogin, validate } from './support.js';

// docs/protocol.md §12: /login with single sign-on, renew, gateway, warn and method=POST; /logout.
describe('browser login: the CAS 3.0 /login and /logout flow over real HTTP (docs/protocol.md §12)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin();
  });
  after(() => tessera.close());

  it('shows the form, logs in, sets the TGC and sends the browser back with a ticket that validates', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).to.equal('no-store');
    expect(page.headers.get('content-security-policy')).to.include("default-src 'none'").and.include("frame-ancestors 'none'");
    expect(headingOf(page.body)).to.equal('Log in');
    expect(page.body).to.include('<html lang="en">').and.include('<label for="username">Username</label>').and.include('<label for="password">Password</label>');
    expect(formOf(page.body).hidden).to.include({ service: APP }).and.have.property('formToken');
    expect(page.setCookies.join()).to.match(/^TBROWSER=[\w-]{43}; path=\/cas; samesite=lax; httponly$/);

    const landing = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    expect(landing.status, landing.body).to.equal(302);
    expect(landing.location).to.match(/^https:\/\/app\.example\.org\/home\?ticket=ST-\d+-[\w-]+-e2e$/);
    const tgc = landing.setCookies.find((cookie) => cookie.startsWith('TGC='));
    expect(tgc).to.match(/^TGC=[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+; path=\/cas; samesite=lax; httponly$/);
    for (const part of tgc!.slice('TGC='.length).split(';')[0]!.split('.')) {
      expect(Buffer.from(part, 'base64url').toString('latin1')).to.not.include('TGT-');
    }
    expect(await validate(tessera.url, APP, ticketOf(landing.location)!)).to.deep.include({ user: 'casuser' });
  });

  it('single sign-on: a second service gets its ticket at once, without the form', async () => {
    const browser = new Browser();
    const first = await logIn(browser, tessera.url, APP);
    expect(first.status).to.equal(302);
    const second = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(OTHER)}`);
    expect(second.status, second.body).to.equal(302);
    expect(second.location).to.match(/^https:\/\/other\.example\.org\/start\?ticket=ST-/);
    const validation = await validate(tessera.url, OTHER, ticketOf(second.location)!);
    expect(validation.user).to.equal('casuser');
    expect(validation.attributes).to.deep.include({ isFromNewLogin: ['false'] });
  });

  it('keeps the query and fragment of the service: the ticket goes before the fragment', async () => {
    const browser = new Browser();
    const service = 'https://app.example.org/page?tab=2#section';
    const landing = await logIn(browser, tessera.url, service);
    expect(landing.location).to.match(/^https:\/\/app\.example\.org\/page\?tab=2&ticket=ST-[\w-]+#section$/);
    expect((await validate(tessera.url, service, ticketOf(landing.location)!)).user).to.equal('casuser');
  });

  it('without a service: the logged-in page, and /login says so again later', async () => {
    const browser = new Browser();
    const loggedIn = await logIn(browser, tessera.url, undefined);
    expect(loggedIn.status).to.equal(200);
    expect(headingOf(loggedIn.body)).to.equal('You are logged in');
    expect(loggedIn.body).to.include('<strong>casuser</strong>');
    const again = await browser.get(`${tessera.url}/login`);
    expect(headingOf(again.body)).to.equal('You are logged in');
  });

  it('renew: the form again with a session; the new ticket is from a new login, and the session stays', async () => {
    const browser = new Browser();
    await logIn(browser, tessera.url, APP);
    const page = await browser.get(`${tessera.url}/login?renew=true&service=${encodeURIComponent(OTHER)}`);
    expect(page.status).to.equal(200);
    expect(headingOf(page.body)).to.equal('Log in');
    expect(page.body).to.include('You are logged in as <strong>casuser</strong>');
    expect(formOf(page.body).hidden).to.include({ renew: 'true' });
    const renewed = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    expect(renewed.status).to.equal(302);
    const ticket = ticketOf(renewed.location)!;
    const strict = await fetch(`${tessera.url}/p3/serviceValidate?format=JSON&renew=true&service=${encodeURIComponent(OTHER)}&ticket=${ticket}`);
    expect(JSON.stringify(await strict.json())).to.include('"isFromNewLogin":["true"]');
    const sso = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect(sso.status).to.equal(302);
  });

  it("single sign-on's ticket is never from a new login, even the session's first: renew=true refuses it", async () => {
    const browser = new Browser();
    expect((await logIn(browser, tessera.url, undefined)).status).to.equal(200);
    const sso = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect(sso.status).to.equal(302);
    const strict = await fetch(`${tessera.url}/p3/serviceValidate?format=JSON&renew=true&service=${encodeURIComponent(APP)}&ticket=${ticketOf(sso.location)!}`);
    expect(JSON.stringify(await strict.json())).to.include('"code":"INVALID_TICKET"');
    const next = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(OTHER)}`);
    expect((await validate(tessera.url, OTHER, ticketOf(next.location)!)).attributes).to.deep.include({ isFromNewLogin: ['false'] });
  });

  it('renew as another user ends the first session and starts one for the new user', async () => {
    const browser = new Browser();
    const first = await logIn(browser, tessera.url, APP);
    const firstTgc = await browser.cookie(tessera.url, 'TGC');
    const page = await browser.get(`${tessera.url}/login?renew=true&service=${encodeURIComponent(APP)}`);
    const second = await browser.submit(page, { username: 'alice', password: 'secret' });
    expect(second.status).to.equal(302);
    expect((await validate(tessera.url, APP, ticketOf(second.location)!)).user).to.equal('alice');
    expect(await browser.cookie(tessera.url, 'TGC')).to.not.equal(firstTgc);
    // The first ticket's session is gone: its ticket no longer validates.
    expect((await validate(tessera.url, APP, ticketOf(first.location)!)).code).to.equal('INVALID_TICKET');
  });

  it('gateway: back to the service without a ticket when there is no session, with one when there is', async () => {
    const browser = new Browser();
    const anonymous = await browser.get(`${tessera.url}/login?gateway=true&service=${encodeURIComponent(APP)}`);
    expect(anonymous.status).to.equal(302);
    expect(anonymous.location).to.equal(APP);
    await logIn(browser, tessera.url, OTHER);
    const known = await browser.get(`${tessera.url}/login?gateway=true&service=${encodeURIComponent(APP)}`);
    expect(known.status).to.equal(302);
    expect(ticketOf(known.location)).to.match(/^ST-/);
    // renew wins over gateway: the form.
    const both = await browser.get(`${tessera.url}/login?gateway=true&renew=true&service=${encodeURIComponent(APP)}`);
    expect(both.status).to.equal(200);
    expect(headingOf(both.body)).to.equal('Log in');
  });

  it('refuses an unregistered or disabled service with an error page, never a redirect', async () => {
    const browser = new Browser();
    for (const service of ['https://evil.example.net/steal', 'https://disabled.example.org/app']) {
      const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(service)}`);
      expect(page.status, service).to.equal(403);
      expect(page.location).to.equal(null);
      expect(headingOf(page.body)).to.equal('Application not recognised');
      expect(page.body).to.not.include(service);
    }
    // Logged in, the same: no ticket for an unknown service.
    await logIn(browser, tessera.url, APP);
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent('https://evil.example.net/steal')}`);
    expect(page.status).to.equal(403);
    expect(page.location).to.equal(null);
    // Nor can the form be posted for one.
    const posted = await browser.post(`${tessera.url}/login`, { service: 'https://evil.example.net/', username: 'casuser', password: 'Mellon', formToken: 'x' });
    expect(posted.status).to.equal(403);
    expect(posted.location).to.equal(null);
  });

  it('refuses a service URL that is no URL, and a method other than GET or POST: 400 pages', async () => {
    const browser = new Browser();
    expect((await browser.get(`${tessera.url}/login?service=${encodeURIComponent('javascript:alert(1)')}`)).status).to.equal(400);
    const wrongMethod = await browser.get(`${tessera.url}/login?method=HEADER&service=${encodeURIComponent(APP)}`);
    expect(wrongMethod.status).to.equal(400);
    expect(headingOf(wrongMethod.body)).to.equal('Request not understood');
  });

  it('a service without single sign-on asks for the password again; one whose rules refuse the user says so', async () => {
    const browser = new Browser();
    await logIn(browser, tessera.url, APP, 'alice', 'secret');
    const noSso = await browser.get(`${tessera.url}/login?service=${encodeURIComponent('https://nosso.example.org/app')}`);
    expect(noSso.status).to.equal(200);
    expect(headingOf(noSso.body)).to.equal('Log in');
    const staff = await browser.get(`${tessera.url}/login?service=${encodeURIComponent('https://staff.example.org/')}`);
    expect(staff.status).to.equal(403);
    expect(headingOf(staff.body)).to.equal('Access denied');
    expect(staff.location).to.equal(null);
  });

  it('method=POST: a page whose form posts the ticket to the service, submitted by its one allowed script', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?method=POST&service=${encodeURIComponent(APP)}`);
    const posted = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    expect(posted.status).to.equal(200);
    const form = formOf(posted.body);
    expect(form.action).to.equal(APP);
    expect(form.hidden['ticket']).to.match(/^ST-/);
    expect(posted.headers.get('content-security-policy')).to.match(/script-src 'sha256-[\w+/=]+'/);
    expect((await validate(tessera.url, APP, form.hidden['ticket']!)).user).to.equal('casuser');
  });

  it('warn: single sign-on waits for the user to confirm, then goes on', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    const first = await browser.submit(page, { username: 'casuser', password: 'Mellon', warn: 'true' });
    expect(first.status).to.equal(302);
    expect(first.setCookies.join()).to.match(/CASPRIVACY=true; path=\/cas; samesite=lax; httponly/);
    const confirm = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(OTHER)}`);
    expect(confirm.status).to.equal(200);
    expect(headingOf(confirm.body)).to.equal('Continue to the application?');
    const onward = await browser.submit(confirm);
    expect(onward.status).to.equal(302);
    expect((await validate(tessera.url, OTHER, ticketOf(onward.location)!)).user).to.equal('casuser');
  });

  it('a failed login shows the form again with one message, keeps the username, sets no TGC', async () => {
    const browser = new Browser();
    for (const [username, password] of [['casuser', 'wrong'], ['nobody', 'Mellon']] as const) {
      const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
      const refused = await browser.submit(page, { username, password });
      expect(refused.status).to.equal(401);
      expect(messageOf(refused.body)).to.equal('The username, password or one-time code is not right. Please try again.');
      expect(refused.body).to.include(`value="${username}"`).and.not.include(password === 'wrong' ? 'wrong' : 'Mellon');
      expect(formOf(refused.body).hidden).to.include({ service: APP });
      expect(refused.setCookies.join()).to.not.include('TGC=');
    }
    const page = await browser.get(`${tessera.url}/login`);
    const empty = await browser.submit(page, { username: '', password: '' });
    expect(empty.status).to.equal(400);
    expect(messageOf(empty.body)).to.equal('The username, password or one-time code is not right. Please try again.');
  });

  it('logout ends the session and its tickets, clears the TGC, then the form is needed again', async () => {
    const browser = new Browser();
    const landing = await logIn(browser, tessera.url, APP);
    const ticket = ticketOf(landing.location)!;
    const out = await browser.get(`${tessera.url}/logout`);
    expect(out.status).to.equal(200);
    expect(headingOf(out.body)).to.equal('You are logged out');
    expect(out.setCookies.join()).to.match(/^TGC=; path=\/cas; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax; httponly$/);
    expect(await browser.cookie(tessera.url, 'TGC')).to.equal(undefined);
    expect((await validate(tessera.url, APP, ticket)).code).to.equal('INVALID_TICKET');
    const again = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect(headingOf(again.body)).to.equal('Log in');
    const relogin = await browser.submit(again, { username: 'casuser', password: 'Mellon' });
    expect(relogin.status).to.equal(302);
    expect((await validate(tessera.url, APP, ticketOf(relogin.location)!)).user).to.equal('casuser');
  });

  it('logout follows service (or CAS 2 url) only to a registered service', async () => {
    const browser = new Browser();
    await logIn(browser, tessera.url, APP);
    const onward = await browser.get(`${tessera.url}/logout?service=${encodeURIComponent(OTHER)}`);
    expect(onward.status).to.equal(302);
    expect(onward.location).to.equal(OTHER);
    const cas2 = await browser.get(`${tessera.url}/logout?url=${encodeURIComponent(APP)}`);
    expect(cas2.location).to.equal(APP);
    for (const elsewhere of ['https://evil.example.net/', 'https://disabled.example.org/x', 'javascript:alert(1)']) {
      const page = await browser.get(`${tessera.url}/logout?service=${encodeURIComponent(elsewhere)}`);
      expect(page.status, elsewhere).to.equal(200);
      expect(page.location).to.equal(null);
      expect(page.body).to.not.include(elsewhere);
    }
  });

  it('a TGC that does not open (forged, or of another key) is no session, and is cleared', async () => {
    const browser = new Browser();
    await browser.jar.setCookie('TGC=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA; Path=/cas', tessera.url);
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect(page.status).to.equal(200);
    expect(headingOf(page.body)).to.equal('Log in');
    expect(page.setCookies.join()).to.include('TGC=; path=/cas; expires=Thu, 01 Jan 1970');
  });

  it('never logs or audits the cookie value, the form token, the password or a whole ticket id', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    const formToken = formOf(page.body).hidden['formToken']!;
    const landing = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    await browser.get(`${tessera.url}/logout`);
    const secrets = [formToken, (await browser.cookie(tessera.url, 'TBROWSER'))!, landing.setCookies.find((c) => c.startsWith('TGC='))!.split(';')[0]!.slice(4), 'Mellon', ticketOf(landing.location)!];
    const written = [...tessera.logs, ...tessera.audit].join('\n');
    for (const secret of secrets) expect(written).to.not.include(secret);
    expect(written).to.include('"event":"ticket.destroyed"');
  });
});

describe('browser login behind a trusted TLS proxy (docs/protocol.md §12)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({ server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', trustProxy: true } });
  });
  after(() => tessera.close());

  it('marks its cookies Secure when the proxy says the browser came over https', async () => {
    const browser = new Browser({ 'x-forwarded-proto': 'https' });
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect(page.setCookies.join()).to.match(/^TBROWSER=[\w-]+; path=\/cas; samesite=lax; secure; httponly$/);
    const landing = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    expect(landing.status).to.equal(302);
    expect(landing.setCookies.find((cookie) => cookie.startsWith('TGC='))).to.match(/; path=\/cas; samesite=lax; secure; httponly$/);
  });
});

describe('browser login with an https server.publicUrl behind a proxy that sends no X-Forwarded-Proto (docs/protocol.md §12.5)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({ server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', trustProxy: true, publicUrl: 'https://cas.example.org' } });
  });
  after(() => tessera.close());

  it('marks every cookie Secure, set or cleared: the browser reached https://cas.example.org', async () => {
    const browser = new Browser({ 'x-forwarded-for': '198.51.100.7' });
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect(page.setCookies.join()).to.match(/^TBROWSER=[\w-]+; path=\/cas; samesite=lax; secure; httponly$/);
    const landing = await browser.submit(page, { username: 'casuser', password: 'Mellon', warn: 'true' });
    expect(landing.status).to.equal(302);
    expect(landing.setCookies).to.have.length(2);
    for (const cookie of landing.setCookies) expect(cookie).to.match(/^(TGC|CASPRIVACY)=[^;]+; path=\/cas; samesite=lax; secure; httponly$/);
    const loggedOut = await browser.get(`${tessera.url}/logout`);
    expect(loggedOut.setCookies.join()).to.match(/^TGC=; path=\/cas; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax; secure; httponly$/);
  });
});
