import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { APP, type Tessera } from '../../support/tessera.js';
import { Browser, messageOf, ticketOf } from '../../support/browser.js';
import { startLogin, validate } from '../login/support.js';

const SECRET = new Secret({ size: 20 }).base32;

// docs/protocol.md §12.1: with the otp module the form asks for a one-time code, checked as over REST.
describe('browser login with the otp module: the form asks for the code (docs/protocol.md §12.1)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({
      modules: ['rest', 'otp', 'login'],
      otp: { parameter: 'code' },
      users: [{ username: 'casuser', password: 'Mellon', otpSecret: SECRET, requireOtp: true }],
    });
  });
  after(() => tessera.close());

  it('a user who needs a code gets the one message without it, and is logged in with it, once', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`);
    expect(page.body).to.include('<label for="otp">One-time code</label><input type="text" id="otp" name="code" inputmode="numeric" autocomplete="one-time-code"');
    const withoutCode = await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    expect(withoutCode.status).to.equal(401);
    expect(messageOf(withoutCode.body)).to.equal('The username, password or one-time code is not right. Please try again.');
    const code = TOTP.generate({ secret: Secret.fromBase32(SECRET) });
    const landing = await browser.submit(withoutCode, { username: 'casuser', password: 'Mellon', code });
    expect(landing.status).to.equal(302);
    expect((await validate(tessera.url, APP, ticketOf(landing.location)!)).user).to.equal('casuser');
    const other = new Browser();
    const replay = await other.submit(await other.get(`${tessera.url}/login`), { username: 'casuser', password: 'Mellon', code });
    expect(replay.status, 'a code works once').to.equal(401);
  });
});
