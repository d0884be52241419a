import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Secret, TOTP } from 'otpauth';
import { Browser, headingOf, ticketOf } from '../support/browser.js';
import type { Tessera } from '../support/tessera.js';
import { logIn, servicesWith, startLogin, validate } from '../login/support.js';

const GAUTH = 'https://gauth.example.org/home';
const OPEN = 'https://open-gauth.example.org/home';
const service = (id: number, host: string, failureMode?: string) => ({
  '@class': 'org.apereo.cas.services.CasRegisteredService',
  id,
  name: host,
  serviceId: `^https://${host.replaceAll('.', '\\.')}/.*`,
  multifactorPolicy: {
    '@class': 'org.apereo.cas.services.DefaultRegisteredServiceMultifactorPolicy',
    multifactorAuthenticationProviders: ['java.util.LinkedHashSet', ['mfa-gauth']],
    ...(failureMode !== undefined && { failureMode }),
  },
});
const code = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });
const secretOf = (body: string) => /<code>([A-Z2-7 ]+)<\/code>/.exec(body)?.[1]?.replaceAll(' ', '');

// docs/modules/otp.md (otp.selfRegistration): a user without a secret enrols one after the password, confirmed by a first code.
describe('otp self-registration: a TOTP secret enrolled in the login', () => {
  describe('on the memory store', () => enrols(() => ({})));
  describeWithRedis('on Redis (the enrolled secret on every node)', (redis) => {
    enrols(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `otp-enrol${Math.random().toString(36).slice(2, 8)}:` } } }));
  });

  it('with selfRegistration off (the default), a user without a secret is refused by a CLOSED policy, as before', async () => {
    const tessera = await startLogin({ modules: ['rest', 'otp', 'login'], services: servicesWith(service(40, 'gauth.example.org')) });
    try {
      const refused = await logIn(new Browser(), tessera.url, GAUTH, 'alice', 'secret');
      expect(refused.status).to.equal(403);
    } finally {
      await tessera.close();
    }
  });
});

function enrols(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({ ...storage(), modules: ['rest', 'otp', 'login'], otp: { selfRegistration: true }, services: servicesWith(service(40, 'gauth.example.org'), service(41, 'open-gauth.example.org', 'OPEN')) });
  });
  after(() => tessera.close());

  it('shows a QR code and the secret after the password; a wrong code keeps the same secret; the first right code proves the factor and enrols it', async () => {
    const browser = new Browser();
    const page = await logIn(browser, tessera.url, GAUTH, 'alice', 'secret');
    expect(headingOf(page.body)).to.equal('Set up one-time codes');
    expect(page.body).to.match(/<img class="qr" src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="QR code of the secret, for an authenticator app"/);
    const secret = secretOf(page.body)!;
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    const wrong = await browser.submit(page, { otp: '000000' });
    expect(wrong.status).to.equal(401);
    expect(secretOf(wrong.body), 'the same secret, not one to scan again').to.equal(secret);
    const landing = await browser.submit(wrong, { otp: code(secret) });
    expect(landing.status, landing.body).to.equal(302);
    expect((await validate(tessera.url, GAUTH, ticketOf(landing.location)!)).attributes?.['authnContextClass']).to.deep.equal(['mfa-gauth']);
    // From now on the code of that secret is asked, on a new login (never the same code twice).
    const next = await logIn(new Browser(), tessera.url, GAUTH, 'alice', 'secret');
    expect(headingOf(next.body)).to.equal('One-time code');
    expect((await new Browser().post(`${tessera.url}/v1/tickets`, { username: 'alice', password: 'secret', otp: code(secret, 1) })).status, 'and over REST').to.equal(201);
  });

  it('asks no enrolment where the policy lets users without a factor through (OPEN)', async () => {
    const landing = await logIn(new Browser(), tessera.url, OPEN, 'casuser', 'Mellon');
    expect(landing.status).to.equal(302);
  });

  it('shows a secret to its own login only: another login of the user (whoever has the password) is shown another, and cannot finish the first', async () => {
    const user = new Browser();
    const page = await logIn(user, tessera.url, GAUTH, 'casuser', 'Mellon');
    const secret = secretOf(page.body)!;
    const intruder = new Browser();
    const theirs = await logIn(intruder, tessera.url, GAUTH, 'casuser', 'Mellon');
    expect(headingOf(theirs.body)).to.equal('Set up one-time codes');
    expect(secretOf(theirs.body), 'the user’s secret is never shown to another login').to.not.equal(secret);
    expect(theirs.body).to.not.include(secret);
    // The intruder's code of the user's secret does not enrol it through the intruder's login.
    expect((await intruder.submit(theirs, { otp: code(secret) })).status).to.equal(401);
    // The user's own login still enrols the secret it showed, once.
    const landing = await user.submit(page, { otp: code(secret) });
    expect(landing.status, landing.body).to.equal(302);
    expect((await validate(tessera.url, GAUTH, ticketOf(landing.location)!)).attributes?.['authnContextClass']).to.deep.equal(['mfa-gauth']);
  });
}
