import { expect } from 'chai';
import { APP, type Tessera } from '../../support/tessera.js';
import { Browser, formOf, headingOf, messageOf } from '../../support/browser.js';
import { startLogin } from './support.js';

const FORM_EXPIRED = 'The login form expired or was sent twice. Please log in again.';

// docs/protocol.md §12.2: the form's anti-forgery token; docs/protocol.md §5.1 through the form.
describe('browser login: the form token is required, bound to the browser and single-use (docs/protocol.md §12.2)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin();
  });
  after(() => tessera.close());

  const refusals = () => tessera.audit.filter((line) => line.includes('"action":"login.token.refused"')).map((line) => (JSON.parse(line) as { reason: string }).reason);

  it('refuses a form without a token: 403, the form again with a fresh token, no login', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    const refused = await browser.post(`${tessera.url}/login`, { username: 'casuser', password: 'Mellon', service: APP });
    expect(refused.status).to.equal(403);
    expect(messageOf(refused.body)).to.equal(FORM_EXPIRED);
    expect(refused.setCookies.join()).to.not.include('TGC=');
    expect(formOf(refused.body).hidden['formToken']).to.be.a('string').and.not.equal(formOf(page.body).hidden['formToken']);
    expect(refusals()).to.include('missing');
  });

  it('accepts a token once: the same form sent again is refused, even with the right password', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect((await browser.submit(page, { username: 'casuser', password: 'wrong' })).status).to.equal(401);
    const replay = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    expect(replay.status).to.equal(403);
    expect(messageOf(replay.body)).to.equal(FORM_EXPIRED);
    expect(refusals()).to.include('reused');
    // The fresh form that came with the refusal works.
    const fresh = await browser.submit(replay, { username: 'casuser', password: 'Mellon' });
    expect(fresh.status).to.equal(302);
  });

  it("refuses a token issued to another browser (a cross-site post carries the attacker's token)", async () => {
    const attacker = new Browser();
    const victim = new Browser();
    const token = formOf((await attacker.get(`${tessera.url}/login`)).body).hidden['formToken']!;
    await victim.get(`${tessera.url}/login`);
    const forged = await victim.post(`${tessera.url}/login`, { username: 'alice', password: 'secret', formToken: token });
    expect(forged.status).to.equal(403);
    expect(forged.setCookies.join()).to.not.include('TGC=');
    // Nor does it work from a browser without the browser cookie at all.
    const bare = await fetch(`${tessera.url}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ username: 'alice', password: 'secret', formToken: token }).toString(), redirect: 'manual' });
    expect(bare.status).to.equal(403);
    expect(refusals()).to.include('invalid');
  });

  it('a post without credentials claims nothing: the same form with the right password then logs in', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    for (const fields of [{}, { username: 'casuser' }, { password: 'Mellon' }]) {
      const empty = await browser.submit(page, fields);
      expect(empty.status).to.equal(400);
      expect(messageOf(empty.body)).to.equal('The username, password or one-time code is not right. Please try again.');
    }
    // A confirmation without a login session has nothing to confirm: the form, and the token stays unused.
    const unconfirmed = await browser.submit(page, { confirmed: 'true' });
    expect(unconfirmed.status).to.equal(200);
    expect(headingOf(unconfirmed.body)).to.equal('Log in');
    const landing = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    expect(landing.status, landing.body).to.equal(302);
  });

  it('refuses a token that was tampered with', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login`);
    const token = formOf(page.body).hidden['formToken']!;
    // One fully significant character of the signature changed (the last one also carries padding bits).
    const tampered = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.slice(-1)}`;
    const refused = await browser.post(`${tessera.url}/login`, { username: 'casuser', password: 'Mellon', formToken: tampered });
    expect(refused.status).to.equal(403);
  });
});

describe('browser login: failed logins through the form are throttled as REST ones (docs/protocol.md §5.1)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({ modules: ['rest', 'login', 'throttle'], throttle: { failure: { threshold: 2, lockSeconds: 60 } } });
  });
  after(() => tessera.close());

  it('locks the address and username after the threshold: 423, the form with one message and Retry-After, even for the right password', async () => {
    const browser = new Browser();
    let page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    for (let attempt = 0; attempt < 2; attempt++) {
      page = await browser.submit(page, { username: 'casuser', password: 'wrong' });
      expect(page.status).to.equal(401);
    }
    const locked = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    expect(locked.status).to.equal(423);
    expect(Number(locked.headers.get('retry-after'))).to.be.within(1, 60);
    expect(headingOf(locked.body)).to.equal('Log in');
    expect(messageOf(locked.body)).to.equal('Too many failed attempts. Please wait a while before you try again.');
    expect(locked.setCookies.join()).to.not.include('TGC=');
    expect(tessera.audit.join('\n')).to.include('"action":"authentication.throttled"');
    // Another user from the same address is not locked, and a success after failures resets the count.
    const other = await browser.submit(locked, { username: 'alice', password: 'wrong' });
    expect(other.status).to.equal(401);
    const success = await browser.submit(other, { username: 'alice', password: 'secret' });
    expect(success.status).to.equal(302);
    const again = await browser.get(`${tessera.url}/logout`);
    expect(again.status).to.equal(200);
    let form = await browser.get(`${tessera.url}/login`);
    form = await browser.submit(form, { username: 'alice', password: 'wrong' });
    expect(form.status).to.equal(401);
    expect((await browser.submit(form, { username: 'alice', password: 'secret' })).status).to.equal(200);
  });
});

describe('browser login: POST /login is limited per client address (docs/protocol.md §5.3)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({
      server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', trustProxy: true },
      modules: ['rest', 'login', 'throttle'],
      throttle: { loginForm: { requestsPerSecond: 0.01, burst: 2 }, validation: { requestsPerSecond: 0.01, burst: 2 } },
    });
  });
  after(() => tessera.close());

  it("answers the burst's next post 429 with Retry-After and the form, before its token or credentials are looked at; other addresses and the validation buckets are apart", async () => {
    const browser = new Browser({ 'x-forwarded-for': '198.51.100.50' });
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect((await browser.submit(page, {})).status).to.equal(400);
    expect((await browser.submit(page, { username: 'casuser', password: 'wrong' })).status).to.equal(401);
    const fresh = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    const limited = await browser.submit(fresh, { username: 'casuser', password: 'Mellon' });
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.within(99, 100);
    expect(headingOf(limited.body)).to.equal('Log in');
    expect(messageOf(limited.body)).to.equal('Too many attempts from your network. Please wait a while before you try again.');
    expect(limited.setCookies.join()).to.not.include('TGC=');
    // Its token was not claimed: the same browser, through another address of the proxy, logs in with it.
    const moved = await fetch(`${tessera.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: await browser.jar.getCookieString(tessera.url), 'x-forwarded-for': '198.51.100.52' },
      body: new URLSearchParams({ ...formOf(fresh.body).hidden, username: 'casuser', password: 'Mellon' }).toString(),
      redirect: 'manual',
    });
    expect(moved.status).to.equal(302);
    // Another address logs in; the validation endpoints keep their own buckets.
    const other = new Browser({ 'x-forwarded-for': '198.51.100.51' });
    expect((await other.submit(await other.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`), { username: 'casuser', password: 'Mellon' })).status).to.equal(302);
    const validation = await fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=ST-1-x-e2e`, { headers: { 'x-forwarded-for': '198.51.100.50' } });
    expect(validation.status).to.equal(400);
  });
});
