import { expect } from 'chai';
import { Secret } from 'otpauth';
import { SoftwareAuthenticator } from '@tessera/testkit/modules/webauthn';
import { Browser, headingOf, ticketOf } from '../support/browser.js';
import { OTHER_SERVICE, logIn, servicesWith, validate } from '../login/support.js';
import { EITHER, MFA, mfaService, optionsOf, startWebAuthn, type WebAuthnServer } from './support.js';

/** A service asking a one-time code only. */
const GAUTH = 'https://gauth.example.org/home';
const TOTP_SECRET = new Secret({ size: 20 }).base32;

// docs/modules/webauthn.md, "Self-registration trusts the password": a password alone may give a user
// a first factor, never a second one beside a factor the user has already, of whatever kind. Otherwise
// whoever has the password registers a key (or a TOTP secret) of their own through a service asking
// only that kind, and then passes every service that accepts either.
describe('self-registration of a user who has a factor already (a factor-protected account)', () => {
  let server: WebAuthnServer;
  before(async () => {
    server = await startWebAuthn({
      otp: { selfRegistration: true },
      services: servicesWith(OTHER_SERVICE, mfaService(30, 'mfa.example.org', ['mfa-webauthn']), mfaService(31, 'either.example.org', ['mfa-webauthn', 'mfa-gauth']), mfaService(32, 'gauth.example.org', ['mfa-gauth'])),
      users: [
        { username: 'dora', password: 'Explorer', otpSecret: TOTP_SECRET },
        { username: 'casuser', password: 'Mellon' },
        { username: 'alice', password: 'secret' },
      ],
    });
  });
  after(() => server.tessera.close());
  const base = () => server.tessera.url;

  it('offers no key registration to a user with a TOTP secret: a service asking a key only refuses the password alone', async () => {
    const refused = await logIn(new Browser(), base(), MFA, 'dora', 'Explorer');
    expect(headingOf(refused.body)).to.not.equal('Register a security key');
    expect(refused.status).to.equal(403);
    // And the service accepting either factor still asks dora's code: no key of an intruder answers for her.
    const either = await logIn(new Browser(), base(), EITHER, 'dora', 'Explorer');
    expect(headingOf(either.body)).to.equal('One-time code');
  });

  const firstKey = new SoftwareAuthenticator();
  it('offers no TOTP enrolment to a user with a registered key: a service asking a code only refuses the password alone', async () => {
    const key = firstKey;
    const browser = new Browser();
    const registration = await logIn(browser, base(), MFA);
    expect(headingOf(registration.body)).to.equal('Register a security key');
    const registered = await browser.submit(registration, { webauthnResponse: JSON.stringify(key.register(optionsOf(registration.body), { origin: server.origin })) });
    expect(registered.status).to.equal(302);
    const refused = await logIn(new Browser(), base(), GAUTH);
    expect(headingOf(refused.body)).to.not.equal('Set up one-time codes');
    expect(refused.status).to.equal(403);
    // The key still answers where it is accepted.
    const another = new Browser();
    const either = await logIn(another, base(), EITHER);
    expect(headingOf(either.body)).to.equal('Security key');
    const landing = await another.submit(either, { webauthnResponse: JSON.stringify(key.assert(optionsOf(either.body), { origin: server.origin })) });
    expect((await validate(base(), EITHER, ticketOf(landing.location)!)).user).to.equal('casuser');
  });

  it('maps a passkey to its own user only: an answer naming another user’s handle is refused, each key logs in its own user', async () => {
    const aliceKey = new SoftwareAuthenticator();
    const browser = new Browser();
    const registration = await logIn(browser, base(), MFA, 'alice', 'secret');
    const aliceHandle = optionsOf(registration.body).user!.id;
    expect((await browser.submit(registration, { webauthnResponse: JSON.stringify(aliceKey.register(optionsOf(registration.body), { origin: server.origin })) })).status).to.equal(302);
    const passkey = async (answer: (options: ReturnType<typeof optionsOf>) => Record<string, unknown>) => {
      const visitor = new Browser();
      const page = await visitor.get(`${base()}/login?service=${encodeURIComponent(MFA)}`);
      return visitor.submit(page, { webauthnResponse: JSON.stringify(answer(optionsOf(page.body))) });
    };
    const aliceLanding = await passkey((options) => aliceKey.assert(options, { origin: server.origin }));
    expect((await validate(base(), MFA, ticketOf(aliceLanding.location)!)).user).to.equal('alice');
    // alice's own key, its answer claiming another user handle (not signed over): refused, not a login of anyone else.
    const swapped = await passkey((options) => {
      const answer = aliceKey.assert(options, { origin: server.origin }) as { response: Record<string, unknown> };
      return { ...answer, response: { ...answer.response, userHandle: Buffer.from('someone else').toString('base64url') } };
    });
    expect(swapped.status).to.equal(401);
    // And with alice's real handle on another key of the site (casuser's): refused, the key names its user.
    const casuserKeyAsAlice = await passkey((options) => {
      const answer = firstKey.assert(options, { origin: server.origin }) as { response: Record<string, unknown> };
      return { ...answer, response: { ...answer.response, userHandle: aliceHandle } };
    });
    expect(casuserKeyAsAlice.status).to.equal(401);
  });
});
