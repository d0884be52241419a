import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { APP, form, type Tessera } from '../../support/tessera.js';
import { Browser, messageOf, ticketOf } from '../../support/browser.js';
import { logIn, OTHER, startLogin, validate } from './support.js';

// docs/modules.md: authentication is central, so a browser-only deployment runs without the REST protocol.
describe('modules: [login] alone: browser single sign-on and validation, no REST (docs/modules.md)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({ modules: ['login'] });
  });
  after(() => tessera.close());

  it('logs in through the form, checked by the central config-users handler, and the ticket validates; single sign-on follows', async () => {
    const browser = new Browser();
    const refused = await logIn(browser, tessera.url, APP, 'casuser', 'wrong');
    expect(refused.status).to.equal(401);
    expect(messageOf(refused.body)).to.equal('The username, password or one-time code is not right. Please try again.');
    const landing = await browser.submit(refused, { username: 'casuser', password: 'Mellon' });
    expect(landing.status, landing.body).to.equal(302);
    expect(await validate(tessera.url, APP, ticketOf(landing.location)!)).to.deep.include({ user: 'casuser' });
    const second = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(OTHER)}`);
    expect(second.status).to.equal(302);
    expect((await validate(tessera.url, OTHER, ticketOf(second.location)!)).user).to.equal('casuser');
  });

  it('answers 404 to the REST protocol: POST /v1/tickets, POST /v1/users, GET /v1/tickets/{id}', async () => {
    const credentials = form({ username: 'casuser', password: 'Mellon' });
    for (const path of ['/v1/tickets', '/v1/users']) expect((await fetch(`${tessera.url}${path}`, credentials)).status, path).to.equal(404);
    expect((await fetch(`${tessera.url}/v1/tickets/TGT-1-abcdefghij-e2e`)).status).to.equal(404);
  });

  it('documents no REST route in its OpenAPI document: the login routes and the validation endpoints only', async () => {
    const document = (await (await fetch(`${tessera.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const paths = Object.keys(document.paths);
    expect(paths.filter((path) => path.startsWith('/v1/'))).to.deep.equal([]);
    expect(paths).to.include.members(['/login', '/logout', '/p3/serviceValidate', '/samlValidate']);
  });
});

describe('modules: [otp, login] without rest: the form asks for the code under its configured name', () => {
  const secret = new Secret({ size: 20 }).base32;
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({ modules: ['otp', 'login'], otp: { parameter: 'pin' }, users: [{ username: 'casuser', password: 'Mellon', otpSecret: secret, requireOtp: true }] });
  });
  after(() => tessera.close());

  it('shows the field the otp module contributes, refuses the password alone and logs in with the code', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect(page.body).to.include('<input type="text" id="otp" name="pin" inputmode="numeric" autocomplete="one-time-code"');
    const withoutCode = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    expect(withoutCode.status).to.equal(401);
    const pin = TOTP.generate({ secret: Secret.fromBase32(secret) });
    const landing = await browser.submit(withoutCode, { username: 'casuser', password: 'Mellon', pin });
    expect(landing.status, landing.body).to.equal(302);
    expect((await validate(tessera.url, APP, ticketOf(landing.location)!)).user).to.equal('casuser');
  });
});
