import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Secret, TOTP } from 'otpauth';
import { APP, form, type Tessera } from '../../support/tessera.js';
import { Browser, ticketOf } from '../../support/browser.js';
import { logIn, servicesWith, startLogin, validate } from './support.js';

const SECRET = new Secret({ size: 20 }).base32;
/** The code of the 30 s step `steps` away from now: each code is accepted once, a later step after an earlier. */
const code = (steps = 0) => TOTP.generate({ secret: Secret.fromBase32(SECRET), timestamp: Date.now() + steps * 30_000 });

const MFA = 'https://mfa.example.org/home';
const STAFF_MFA = 'https://trigger.example.org/home';
const OPEN_MFA = 'https://open.example.org/home';
const policy = (more: Record<string, unknown> = {}) => ({
  '@class': 'org.apereo.cas.services.DefaultRegisteredServiceMultifactorPolicy',
  multifactorAuthenticationProviders: ['java.util.LinkedHashSet', ['mfa-gauth']],
  ...more,
});
const service = (id: number, name: string, host: string, multifactorPolicy: Record<string, unknown>) => ({
  '@class': 'org.apereo.cas.services.CasRegisteredService',
  id,
  name,
  serviceId: `^https://${host.replaceAll('.', '\\.')}/.*`,
  multifactorPolicy,
  // No principal attribute, only the authentication's (the factor among them).
  attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', []] },
});

// docs/services.md (multifactorPolicy): a service asks the otp module's code of its users, on single sign-on too.
describe('a service with a multifactorPolicy asks the second factor (step-up)', () => {
  describe('on the memory store', () => asksTheSecondFactor(() => ({})));
  describeWithRedis('on Redis (the stepped-up session and the used codes in the store)', (redis) => {
    asksTheSecondFactor(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'service-mfa:' } } }));
  });
});

function asksTheSecondFactor(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({
      ...storage(),
      modules: ['rest', 'otp', 'login'],
      services: servicesWith(
        service(20, 'Mfa', 'mfa.example.org', policy()),
        service(21, 'TriggerMfa', 'trigger.example.org', policy({ principalAttributeNameTrigger: 'memberOf', principalAttributeValueToMatch: '^staff$' })),
        service(22, 'OpenMfa', 'open.example.org', policy({ failureMode: 'OPEN' })),
      ),
      users: [
        { username: 'casuser', password: 'Mellon', otpSecret: SECRET, attributes: { memberOf: ['staff'] } },
        { username: 'alice', password: 'secret', attributes: { memberOf: ['students'] } },
        // Codes are per user and each once: the REST test's own user, with the same secret.
        { username: 'bob', password: 'Builder', otpSecret: SECRET },
      ],
    });
  });
  after(() => tessera.close());

  it('in the browser: a service without the policy asks no code; SSO into the MFA service asks it once, then not again', async () => {
    const browser = new Browser();
    const plain = await logIn(browser, tessera.url, APP);
    expect(plain.status, 'no step for a service without the policy').to.equal(302);
    const stepPage = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(MFA)}`);
    expect(stepPage.status).to.equal(200);
    expect(stepPage.body).to.include('This service asks for a second factor');
    const wrong = await browser.submit(stepPage, { otp: '000000' });
    expect(wrong.status).to.equal(401);
    expect(wrong.body).to.include('That code was not accepted.');
    const landing = await browser.submit(wrong, { otp: code() });
    expect(landing.status).to.equal(302);
    expect(landing.location).to.match(/^https:\/\/mfa\.example\.org\/home\?ticket=ST-/);
    const stepped = await validate(tessera.url, MFA, ticketOf(landing.location)!);
    expect(stepped.user).to.equal('casuser');
    expect(stepped.attributes?.['authnContextClass'], 'the service is told the factor, as CAS names it').to.deep.equal(['mfa-gauth']);
    const again = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(MFA)}`);
    expect(again.status, 'the session has the factor now').to.equal(302);
    expect(ticketOf(again.location)).to.match(/^ST-/);
  });

  it('gateway shows no page: a session lacking the code goes back to the MFA service without a ticket, and is not stepped up', async () => {
    const browser = new Browser();
    await logIn(browser, tessera.url, APP);
    const gateway = await browser.get(`${tessera.url}/login?gateway=true&service=${encodeURIComponent(MFA)}`);
    expect(gateway.status, gateway.body).to.equal(302);
    expect(gateway.location).to.equal(MFA);
    // Nothing was held or added: without gateway the code is still asked.
    const stepPage = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(MFA)}`);
    expect(stepPage.status).to.equal(200);
    expect(stepPage.body).to.include('This service asks for a second factor');
  });

  it('in the browser: a new login for the MFA service asks the code after the password, unless the form had it', async () => {
    const browser = new Browser();
    const afterPassword = await logIn(browser, tessera.url, MFA);
    expect(afterPassword.status).to.equal(200);
    expect(afterPassword.body).to.include('This service asks for a second factor');
    const landing = await browser.submit(afterPassword, { otp: code(1) });
    expect(landing.status).to.equal(302);
    expect(ticketOf(landing.location)).to.match(/^ST-/);
  });

  it('over REST: a TGT without the code gets no ticket for the MFA service (401, the reason said); one with it does', async () => {
    const tgtOf = async (fields: Record<string, string>) =>
      (await fetch(`${tessera.url}/v1/tickets`, { ...form(fields), headers: { ...form({}).headers, accept: 'text/plain' } })).text();
    const without = await tgtOf({ username: 'bob', password: 'Builder' });
    const refused = await fetch(`${tessera.url}/v1/tickets/${without}`, form({ service: MFA }));
    expect(refused.status).to.equal(401);
    expect(await refused.text()).to.include('The service asks for a second factor (a one-time code) that this login did not give.');
    expect((await fetch(`${tessera.url}/v1/tickets/${without}`, form({ service: APP }))).status, 'other services as before').to.equal(200);
    const withCode = await tgtOf({ username: 'bob', password: 'Builder', otp: code() });
    expect((await fetch(`${tessera.url}/v1/tickets/${withCode}`, form({ service: MFA }))).status).to.equal(200);
  });

  it('the attribute trigger asks only matching users; a user without a secret is refused (CLOSED) or let through (OPEN)', async () => {
    const tgtOf = async (username: string, password: string) =>
      (await fetch(`${tessera.url}/v1/tickets`, { ...form({ username, password }), headers: { ...form({}).headers, accept: 'text/plain' } })).text();
    const staff = await tgtOf('casuser', 'Mellon');
    const student = await tgtOf('alice', 'secret');
    expect((await fetch(`${tessera.url}/v1/tickets/${staff}`, form({ service: STAFF_MFA }))).status, 'staff is asked').to.equal(401);
    expect((await fetch(`${tessera.url}/v1/tickets/${student}`, form({ service: STAFF_MFA }))).status, 'a student is not').to.equal(200);
    const closed = await fetch(`${tessera.url}/v1/tickets/${student}`, form({ service: MFA }));
    expect(closed.status).to.equal(401);
    expect(await closed.text()).to.include('this user has none set up');
    const letThrough = await fetch(`${tessera.url}/v1/tickets/${student}`, form({ service: OPEN_MFA }));
    expect(letThrough.status).to.equal(200);
    const withoutFactor = await validate(tessera.url, OPEN_MFA, await letThrough.text());
    expect(withoutFactor.attributes, 'the authentication attributes, no factor among them').to.have.property('isFromNewLogin');
    expect(withoutFactor.attributes).to.not.have.property('authnContextClass');
    expect(tessera.logs.some((line) => line.includes('"event":"ticket.secondFactorSkipped"') && line.includes('"principal":"alice"'))).to.equal(true);
    const browser = new Browser();
    const denied = await logIn(browser, tessera.url, MFA, 'alice', 'secret');
    expect(denied.status, 'CLOSED in the browser: a page saying so').to.equal(403);
  });
}
