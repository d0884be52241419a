import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { SoftwareAuthenticator } from '@tessera/testkit/modules/webauthn';
import { Browser, formOf, headingOf, ticketOf, type Visit } from '../../support/browser.js';
import { APP } from '../../support/tessera.js';
import { logIn, startLogin, validate } from '../login/support.js';
import { EITHER, MFA, MovableClock, optionsOf, startWebAuthn, type WebAuthnServer } from './support.js';

const AUDIT = (lines: readonly string[], action: string) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record['action'] === action);

// docs/modules/webauthn.md: security keys and passkeys as the mfa-webauthn factor, self-registered after the
// password, and as the passkey login; each answer checked (challenge once and in time, origin, RP id, the
// user's own key, the counter), a refusal storing nothing.
describe('the webauthn module over HTTP (a software authenticator)', () => {
  describe('on the memory store', () => webAuthnFlows(() => ({})));
  describeWithRedis('on Redis (devices, challenges and held logins in the store)', (redis) => {
    webAuthnFlows(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `webauthn${Math.random().toString(36).slice(2, 8)}:` } } }));
  });
});

function webAuthnFlows(storage: () => Record<string, unknown>): void {
  let server: WebAuthnServer;
  const clock = new MovableClock();
  const key = new SoftwareAuthenticator();
  before(async () => {
    server = await startWebAuthn(storage(), { clock });
  });
  after(() => server.tessera.close());

  const base = () => server.tessera.url;
  const answer = { get origin() {
    return server.origin;
  } };

  /** The password posted for the service: the page that comes next. */
  const password = (browser: Browser, service: string, username = 'casuser', secret = 'Mellon') => logIn(browser, base(), service, username, secret);

  it('registers a key after the password for a service asking mfa-webauthn (self-registration), which proves the factor', async () => {
    const browser = new Browser();
    const page = await password(browser, MFA);
    expect(page.status).to.equal(200);
    expect(headingOf(page.body)).to.equal('Register a security key');
    const options = optionsOf(page.body);
    expect(options.rp?.id).to.equal('localhost');
    const landing = await browser.submit(page, { webauthnResponse: JSON.stringify(key.register(options, answer)), webauthnDeviceName: 'Blue USB key' });
    expect(landing.status, landing.body).to.equal(302);
    const validated = await validate(base(), MFA, ticketOf(landing.location)!);
    expect(validated.user).to.equal('casuser');
    expect(validated.attributes?.['authnContextClass']).to.deep.equal(['mfa-webauthn']);
    const registered = AUDIT(server.tessera.audit, 'webauthn.registered');
    expect(registered.map((record) => record['who'])).to.deep.equal(['casuser']);
  });

  it('asks the registered key after the password from then on: the right key gets the ticket, a refused answer the page again', async () => {
    const browser = new Browser();
    const page = await password(browser, MFA);
    expect(headingOf(page.body)).to.equal('Security key');
    const options = optionsOf(page.body);
    expect(options.allowCredentials?.map((credential) => credential.id)).to.deep.equal(key.credentialIds);
    const wrongOrigin = await browser.submit(page, { webauthnResponse: JSON.stringify(key.assert(options, { origin: 'https://evil.example.org' })) });
    expect(wrongOrigin.status).to.equal(401);
    expect(wrongOrigin.body).to.include('That security key or passkey was not accepted.');
    // The page again comes with a fresh challenge: the refused one is answered no more.
    const again = optionsOf(wrongOrigin.body);
    expect(again.challenge).to.not.equal(options.challenge);
    const stale = await browser.submit(wrongOrigin, { webauthnResponse: JSON.stringify(key.assert(options, answer)) });
    expect(stale.status, 'an answer to the earlier challenge').to.equal(401);
    const landing = await browser.submit(stale, { webauthnResponse: JSON.stringify(key.assert(optionsOf(stale.body), answer)) });
    expect(landing.status).to.equal(302);
    expect((await validate(base(), MFA, ticketOf(landing.location)!)).attributes?.['authnContextClass']).to.deep.equal(['mfa-webauthn']);
  });

  it('logs in with the passkey alone from the login page, which counts as mfa-webauthn for the service', async () => {
    const browser = new Browser();
    const page = await browser.get(`${base()}/login?service=${encodeURIComponent(MFA)}`);
    expect(page.body).to.include('Log in with a passkey');
    const options = optionsOf(page.body);
    expect(options.allowCredentials, 'any passkey of the site').to.deep.equal([]);
    const landing = await browser.submit(page, { webauthnResponse: JSON.stringify(key.assert(options, answer)) });
    expect(landing.status, landing.body).to.equal(302);
    const validated = await validate(base(), MFA, ticketOf(landing.location)!);
    expect(validated.user).to.equal('casuser');
    expect(validated.attributes?.['authnContextClass']).to.deep.equal(['mfa-webauthn']);
    expect(validated.attributes?.['mail']).to.deep.equal(['casuser@example.org']);
  });

  it('steps a password session up with the key for a service asking mfa-webauthn', async () => {
    const browser = new Browser();
    expect((await password(browser, APP)).status).to.equal(302);
    const step = await browser.get(`${base()}/login?service=${encodeURIComponent(MFA)}`);
    expect(headingOf(step.body)).to.equal('Security key');
    const landing = await browser.submit(step, { webauthnResponse: JSON.stringify(key.assert(optionsOf(step.body), answer)) });
    expect(landing.status).to.equal(302);
    const again = await browser.get(`${base()}/login?service=${encodeURIComponent(MFA)}`);
    expect(again.status, 'the session has the factor now').to.equal(302);
  });

  it('refuses a passkey answer replayed, answering an expired challenge, for another RP id, without user verification, or of an unknown key', async () => {
    const passkey = async (make: (options: ReturnType<typeof optionsOf>) => Record<string, unknown>): Promise<Visit> => {
      const browser = new Browser();
      const page = await browser.get(`${base()}/login`);
      return browser.submit(page, { webauthnResponse: JSON.stringify(make(optionsOf(page.body))) });
    };
    // Replayed: the same answer with the same challenge id, on a fresh form of another browser.
    const browser = new Browser();
    const page = await browser.get(`${base()}/login`);
    const first = key.assert(optionsOf(page.body), answer);
    const challenge = formOf(page.body).hidden['webauthnChallenge']!;
    expect((await browser.submit(page, { webauthnResponse: JSON.stringify(first) })).status).to.equal(200);
    const replayBrowser = new Browser();
    const fresh = await replayBrowser.get(`${base()}/login`);
    const replayed = await replayBrowser.submit(fresh, { webauthnChallenge: challenge, webauthnResponse: JSON.stringify(first) });
    expect(replayed.status, 'replayed').to.equal(401);
    expect(replayed.body).to.include('Log in with a passkey');
    // Expired: answered after challengeSeconds.
    const lateBrowser = new Browser();
    const late = await lateBrowser.get(`${base()}/login`);
    const lateAnswer = key.assert(optionsOf(late.body), answer);
    clock.advanceSeconds(301);
    expect((await lateBrowser.submit(late, { webauthnResponse: JSON.stringify(lateAnswer) })).status, 'expired').to.equal(401);
    expect((await passkey((options) => key.assert(options, { ...answer, rpId: 'evil.example.org' }))).status, 'another RP id').to.equal(401);
    expect((await passkey((options) => key.assert(options, { origin: 'http://localhost:1' }))).status, 'another origin').to.equal(401);
    expect((await passkey((options) => key.assert(options, { ...answer, userVerified: false }))).status, 'no user verification').to.equal(401);
    expect((await passkey((options) => key.assert(options, { ...answer, type: 'webauthn.create' }))).status, 'a registration type').to.equal(401);
    expect((await passkey((options) => key.assert(options, { ...answer, challenge: 'forged' }))).status, 'a forged challenge').to.equal(401);
    const stranger = new SoftwareAuthenticator();
    stranger.register({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'AAAA' } }, answer);
    expect((await passkey((options) => stranger.assert(options, answer))).status, 'an unknown key').to.equal(401);
    expect((await passkey(() => ({ id: key.credentialIds[0], response: 'not an object' }))).status, 'no answer at all').to.equal(401);
    // Each refusal is an authentication failure in the audit trail, none a success.
    const failed = AUDIT(server.tessera.audit, 'authentication.failed').filter((record) => JSON.stringify(record).includes('webauthn'));
    expect(failed.length).to.be.at.least(9);
  });

  it('refuses a counter that went back as a cloned key, and audits it', async () => {
    const browser = new Browser();
    const page = await browser.get(`${base()}/login`);
    const refused = await browser.submit(page, { webauthnResponse: JSON.stringify(key.assert(optionsOf(page.body), { ...answer, counter: 1 })) });
    expect(refused.status).to.equal(401);
    const cloned = AUDIT(server.tessera.audit, 'webauthn.cloned');
    expect(cloned.map((record) => [record['who'], record['outcome']])).to.deep.equal([['casuser', 'failure']]);
  });

  it("refuses another user's key at the second factor: alice cannot answer with casuser's", async () => {
    const browser = new Browser();
    // alice has no key: she registers one of her own first.
    const aliceKey = new SoftwareAuthenticator();
    const registration = await password(browser, MFA, 'alice', 'secret');
    expect(headingOf(registration.body)).to.equal('Register a security key');
    expect((await browser.submit(registration, { webauthnResponse: JSON.stringify(aliceKey.register(optionsOf(registration.body), answer)) })).status).to.equal(302);
    const other = new Browser();
    const step = await password(other, MFA, 'alice', 'secret');
    const options = optionsOf(step.body);
    const theirs = await other.submit(step, { webauthnResponse: JSON.stringify(key.assert(options, answer)) });
    expect(theirs.status).to.equal(401);
    expect((await other.submit(theirs, { webauthnResponse: JSON.stringify(aliceKey.assert(optionsOf(theirs.body), answer)) })).status).to.equal(302);
  });

  it('refuses a registration answering another challenge, from another origin or malformed, and stores nothing', async () => {
    const browser = new Browser();
    const bobKey = new SoftwareAuthenticator();
    const page = await password(browser, MFA, 'bob', 'Builder');
    expect(headingOf(page.body)).to.equal('Register a security key');
    const options = optionsOf(page.body);
    const forged = await browser.submit(page, { webauthnResponse: JSON.stringify(bobKey.register(options, { ...answer, challenge: 'forged' })) });
    expect(forged.status).to.equal(401);
    const elsewhere = await browser.submit(forged, { webauthnResponse: JSON.stringify(bobKey.register(optionsOf(forged.body), { origin: 'https://evil.example.org' })) });
    expect(elsewhere.status).to.equal(401);
    const garbage = await browser.submit(elsewhere, { webauthnResponse: '{"id":"x","response":{"attestationObject":"AAAA","clientDataJSON":"AAAA"}}' });
    expect(garbage.status).to.equal(401);
    // Nothing was stored: the next login of bob asks a registration again, and no answer of those keys logs in.
    const next = await password(new Browser(), MFA, 'bob', 'Builder');
    expect(headingOf(next.body)).to.equal('Register a security key');
    expect(AUDIT(server.tessera.audit, 'webauthn.registered').map((record) => record['who'])).to.not.include('bob');
  });

  it('asks the key of a user who has it when the service accepts it or a one-time code', async () => {
    const browser = new Browser();
    const page = await password(browser, EITHER);
    expect(headingOf(page.body)).to.equal('Security key');
    const landing = await browser.submit(page, { webauthnResponse: JSON.stringify(key.assert(optionsOf(page.body), answer)) });
    expect(landing.status).to.equal(302);
    expect((await validate(base(), EITHER, ticketOf(landing.location)!)).attributes?.['authnContextClass']).to.deep.equal(['mfa-webauthn']);
  });

  it('refuses an answer over its size with 400 and a body over the limit with 413', async () => {
    const browser = new Browser();
    const page = await browser.get(`${base()}/login`);
    const oversized = await browser.submit(page, { webauthnResponse: 'x'.repeat(20_000) });
    expect(oversized.status).to.equal(400);
    const huge = await browser.submit(await browser.get(`${base()}/login`), { webauthnResponse: 'x'.repeat(70_000) });
    expect(huge.status).to.equal(413);
  });

  it('serves the browser library the pages load by URL and integrity, their CSP allowing that URL alone', async () => {
    const page = await new Browser().get(`${base()}/login`);
    const csp = page.headers.get('content-security-policy') ?? '';
    const src = /<script src="([^"]+)" integrity="([^"]+)"><\/script>/.exec(page.body);
    expect(src?.[1]).to.equal(`${server.origin}/cas/webauthn/simplewebauthn-browser.js`);
    expect(csp).to.include(`script-src ${server.origin}/cas/webauthn/simplewebauthn-browser.js 'sha256-`);
    expect(/script-src [^;]*/.exec(csp)?.[0]).to.not.include("'self'");
    const library = await fetch(`${base()}/webauthn/simplewebauthn-browser.js`);
    expect(library.status).to.equal(200);
    expect(library.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    const source = Buffer.from(await library.arrayBuffer());
    const { createHash } = await import('node:crypto');
    expect(`sha384-${createHash('sha384').update(source).digest('base64')}`).to.equal(src?.[2]);
    const revalidated = await fetch(`${base()}/webauthn/simplewebauthn-browser.js`, { headers: { 'if-none-match': library.headers.get('etag')! } });
    expect(revalidated.status).to.equal(304);
  });
}

describe('the webauthn module switched off, or its passkey button', () => {
  it('off: no button, the library is 404, and a posted passkey answer is no credential (the form again, 400)', async () => {
    const tessera = await startLogin({ modules: ['rest', 'login'] });
    try {
      const browser = new Browser();
      const page = await browser.get(`${tessera.url}/login`);
      expect(page.body).to.not.include('passkey');
      expect((await fetch(`${tessera.url}/webauthn/simplewebauthn-browser.js`)).status).to.equal(404);
      const posted = await browser.submit(page, { webauthnChallenge: 'x', webauthnResponse: '{"id":"x"}' });
      expect(posted.status).to.equal(400);
    } finally {
      await tessera.close();
    }
  });

  it('webauthn.passwordless false: no button, and a passkey answer posted anyway is no credential', async () => {
    const { tessera } = await startWebAuthn({ webauthn: { passwordless: false } });
    try {
      const browser = new Browser();
      const page = await browser.get(`${tessera.url}/login`);
      expect(page.body).to.not.include('Log in with a passkey');
      expect((await browser.submit(page, { webauthnChallenge: 'x', webauthnResponse: '{"id":"x"}' })).status).to.equal(400);
    } finally {
      await tessera.close();
    }
  });

  it('takes the relying party from server.publicUrl, never from the request’s Host', async () => {
    const { tessera } = await startWebAuthn();
    try {
      const page = await new Browser({ host: 'evil.example.org' }).get(`${tessera.url}/login`);
      expect(optionsOf(page.body).rpId).to.equal('localhost');
      expect(page.body).to.not.include('evil.example.org');
    } finally {
      await tessera.close();
    }
  });
});
