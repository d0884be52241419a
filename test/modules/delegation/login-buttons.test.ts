import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { Browser } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { logIn, startLogin, validate } from '../login/support.js';
import { startDelegation } from './support.js';

/** The providers the page's buttons name, in order, and where they post. */
function buttonsOf(body: string): { provider: string; formaction: string }[] {
  return [...body.matchAll(/<button type="submit"[^>]*formaction="([^"]+)"[^>]*name="delegatedProvider" value="([^"]+)"/g)].map(([, formaction, provider]) => ({ provider: provider!, formaction: formaction! }));
}

const loginPage = (browser: Browser, base: string, service?: string) => browser.get(`${base}/login${service === undefined ? '' : `?service=${encodeURIComponent(service)}`}`);

// docs/modules/delegation.md: a button per upstream provider the service allows, as its
// accessStrategy.delegatedAuthenticationPolicy says; the one a service allows exclusively is gone to at once.
describe('delegation: the login page’s upstream buttons', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startDelegation();
  });
  after(() => tessera.close());

  it('shows every provider, in the configured order, without a service and for a service without a policy; each posts the login form to the start route', async () => {
    for (const service of [undefined, APP]) {
      const page = await loginPage(new Browser(), tessera.url, service);
      expect(page.status).to.equal(200);
      expect(buttonsOf(page.body), String(service)).to.deep.equal([
        { provider: 'partner', formaction: '/cas/delegation/login' },
        { provider: 'company', formaction: '/cas/delegation/login' },
      ]);
      expect(page.body).to.include('Log in with Partner University').and.include('<img src="https://login.example.com/logo.svg"');
      // Inside the login form: the button posts its token, service and options.
      expect(page.body.indexOf('name="delegatedProvider"')).to.be.greaterThan(page.body.indexOf('name="formToken"'));
      expect(page.body.indexOf('name="delegatedProvider"')).to.be.lessThan(page.body.indexOf('</form>'));
    }
  });

  it('shows only the providers a service allows, none for permitUndefined false with none listed', async () => {
    expect(buttonsOf((await loginPage(new Browser(), tessera.url, 'https://partner-only.example.org/')).body).map((button) => button.provider)).to.deep.equal(['partner']);
    const none = await loginPage(new Browser(), tessera.url, 'https://none.example.org/');
    expect(none.status).to.equal(200);
    expect(buttonsOf(none.body)).to.deep.equal([]);
    expect(none.body).to.not.include('class="delegation"');
  });

  it('goes at once to the one provider a service allows exclusively: the page’s script, allowed by its hash, presses its button', async () => {
    const page = await loginPage(new Browser(), tessera.url, 'https://exclusive.example.org/');
    expect(buttonsOf(page.body).map((button) => button.provider)).to.deep.equal(['company']);
    expect(page.body).to.match(/id="delegation-redirect"/);
    const script = "document.getElementById('delegation-redirect')?.click();";
    expect(page.body).to.include(`<script>${script}</script>`);
    const hash = createHash('sha256').update(script).digest('base64');
    expect(page.headers.get('content-security-policy')).to.include(`'sha256-${hash}'`);
    // Several providers allowed exclusively: the buttons, no redirect.
    const several = await loginPage(new Browser(), tessera.url, 'https://both-exclusive.example.org/');
    expect(buttonsOf(several.body).map((button) => button.provider)).to.deep.equal(['partner', 'company']);
    expect(several.body).to.not.include('delegation-redirect');
  });

  it('leaves the password login as it was: a service with a policy still logs in with the form', async () => {
    const browser = new Browser();
    const landing = await logIn(browser, tessera.url, 'https://partner-only.example.org/');
    expect(landing.status).to.equal(302);
    const ticket = new URL(landing.location!).searchParams.get('ticket')!;
    expect((await validate(tessera.url, 'https://partner-only.example.org/', ticket)).user).to.equal('casuser');
  });
});

describe('delegation: the module off', () => {
  let tessera: Tessera;
  before(async () => {
    // The policy is read all the same (the definition means the same to every server), and no button shows.
    tessera = await startLogin({
      delegation: { providers: [{ id: 'partner', type: 'cas', title: 'Partner University', cas: { serverUrl: 'https://cas.partner.example/cas' } }] },
      services: [
        {
          '@class': 'org.apereo.cas.services.CasRegisteredService',
          id: 1,
          name: 'App',
          serviceId: '^https://app\\.example\\.org/.*',
          accessStrategy: { delegatedAuthenticationPolicy: { allowedProviders: ['partner'], exclusive: true } },
        },
      ],
    });
  });
  after(() => tessera.close());

  it('shows no button and answers 404 on its start route; a service with a policy loads and logs in with the password', async () => {
    const page = await loginPage(new Browser(), tessera.url, APP);
    expect(page.status).to.equal(200);
    expect(buttonsOf(page.body)).to.deep.equal([]);
    expect((await fetch(`${tessera.url}/delegation/login`, { method: 'POST' })).status).to.equal(404);
    const landing = await logIn(new Browser(), tessera.url, APP);
    expect(landing.status).to.equal(302);
  });
});
