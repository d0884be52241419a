import { expect } from 'chai';
import {
  BrowserLogin,
  deriveLoginKeys,
  generateLoginSecret,
  LoginFormTokens,
  loginSecretProblem,
  logoutRequestXml,
  TicketGrantingCookie,
  type FormTokenStore,
} from '@tessera/core/modules/login';
import { SeededRandomSource } from '@tessera/testkit';
import { FixedClock, password, service } from '../../fakes.js';
import { APP, coreWithFakes } from '../../harness.js';

class UsedTokens implements FormTokenStore {
  readonly used = new Map<string, number>();
  claim(tokenId: string, expiresAt: number): Promise<boolean> {
    if (this.used.has(tokenId)) return Promise.resolve(false);
    this.used.set(tokenId, expiresAt);
    return Promise.resolve(true);
  }
}

const keys = deriveLoginKeys(generateLoginSecret(new SeededRandomSource('login keys')));

// docs/protocol.md §12: what the login module's core pieces promise.
describe('login module core (docs/protocol.md §12)', () => {
  describe('the login secret and its keys', () => {
    it('wants exactly 32 bytes of base64url, and derives a different key for each purpose', () => {
      expect(loginSecretProblem(generateLoginSecret(new SeededRandomSource()))).to.equal(undefined);
      expect(loginSecretProblem('short')).to.match(/expected 32 bytes, got 3/);
      expect(loginSecretProblem('not base64url!')).to.match(/base64url/);
      expect(Buffer.from(keys.cookie).equals(Buffer.from(keys.form))).to.equal(false);
    });
  });

  describe('TicketGrantingCookie', () => {
    it('seals a TGT id so the value shows nothing of it, and opens only its own values', async () => {
      const cookie = new TicketGrantingCookie(keys);
      const sealed = await cookie.seal('TGT-1-abcdefghijklmnop-test');
      expect(sealed).to.match(/^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/);
      // Random base64url may spell "TGT" by chance; what must never show is the id, in any part, decoded or not.
      for (const part of [sealed, ...sealed.split('.').map((encoded) => Buffer.from(encoded, 'base64url').toString('latin1'))]) {
        expect(part).to.not.include('abcdefghijklmnop');
      }
      expect(await cookie.open(sealed)).to.equal('TGT-1-abcdefghijklmnop-test');
      expect(await cookie.seal('TGT-1-abcdefghijklmnop-test')).to.not.equal(sealed);
      const parts = sealed.split('.');
      parts[3] = `${parts[3]!.slice(0, -1)}${parts[3]!.endsWith('A') ? 'B' : 'A'}`;
      expect(await cookie.open(parts.join('.'))).to.equal(undefined);
      expect(await new TicketGrantingCookie(deriveLoginKeys(generateLoginSecret(new SeededRandomSource('other')))).open(sealed)).to.equal(undefined);
      expect(await cookie.open('TGT-1-abcdefghijklmnop-test')).to.equal(undefined);
    });
  });

  describe('LoginFormTokens', () => {
    const setUp = () => {
      const clock = new FixedClock();
      const used = new UsedTokens();
      return { clock, used, tokens: new LoginFormTokens(keys, used, clock, new SeededRandomSource(), 600) };
    };

    it('accepts a token once, from the browser it was issued to', async () => {
      const { tokens } = setUp();
      const browser = tokens.newBrowserId();
      const token = await tokens.issue(browser);
      expect(await tokens.accept(token, tokens.newBrowserId())).to.equal('invalid');
      expect(await tokens.accept(token, browser)).to.equal(undefined);
      expect(await tokens.accept(token, browser)).to.equal('reused');
      expect(await tokens.accept(undefined, browser)).to.equal('missing');
      expect(await tokens.accept(token, undefined)).to.equal('missing');
    });

    it('refuses a token past its lifetime, and remembers a used one until then', async () => {
      const { clock, tokens, used } = setUp();
      const browser = tokens.newBrowserId();
      const token = await tokens.issue(browser);
      clock.advanceSeconds(599);
      expect(await tokens.accept(token, browser)).to.equal(undefined);
      expect([...used.used.values()]).to.deep.equal([Math.floor(new FixedClock().now() / 1000) * 1000 + 600_000]);
      const late = await tokens.issue(browser);
      clock.advanceSeconds(601);
      expect(await tokens.accept(late, browser)).to.equal('expired');
    });

    it('refuses a token signed with another key, or with no signature', async () => {
      const { tokens, used, clock } = setUp();
      const browser = tokens.newBrowserId();
      const foreign = new LoginFormTokens(deriveLoginKeys(generateLoginSecret(new SeededRandomSource('x'))), used, clock, new SeededRandomSource('y'), 600);
      expect(await tokens.accept(await foreign.issue(browser), browser)).to.equal('invalid');
      const [, payload] = (await tokens.issue(browser)).split('.');
      expect(await tokens.accept(`eyJhbGciOiJub25lIn0.${payload}.`, browser)).to.equal('invalid');
    });
  });

  describe('logoutRequestXml', () => {
    it("is CAS's SAML LogoutRequest naming the ticket, with a random LR- id and the time to the second", () => {
      const xml = logoutRequestXml('ST-9-abc-test', Date.UTC(2026, 10, 21, 10, 0, 0, 999), new SeededRandomSource());
      expect(xml).to.match(
        /^<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2\.0:protocol" ID="LR-[\w-]{24}" Version="2\.0" IssueInstant="2026-11-21T10:00:00Z"><saml:NameID xmlns:saml="urn:oasis:names:tc:SAML:2\.0:assertion">@NOT_USED@<\/saml:NameID><samlp:SessionIndex>ST-9-abc-test<\/samlp:SessionIndex><\/samlp:LogoutRequest>$/,
      );
    });
  });

  describe('BrowserLogin', () => {
    const setUp = () => {
      const fakes = coreWithFakes([service({ serviceId: '^https://app\\.example\\.org/.*' }), service({ id: 2, name: 'nosso', serviceId: '^https://nosso\\.example\\.org/.*', accessStrategy: { enabled: true, ssoEnabled: false, requiredAttributes: {} } })]);
      return { ...fakes, login: new BrowserLogin(fakes.core, fakes.tickets, fakes.events) };
    };
    const visit = { renew: false, gateway: false, warn: false };

    it('a form login grants a ticket from a new login, authenticating the credentials once', async () => {
      const { login, events } = setUp();
      const { tgt, outcome } = await login.logIn({ ...visit, service: APP, credentials: [password('casuser', 'Mellon')] });
      expect(outcome).to.deep.include({ kind: 'redirect', service: APP });
      expect(events.ofType('authentication.succeeded')).to.have.length(1);
      const again = await login.logIn({ ...visit, service: APP, sessionTgtId: tgt.id, credentials: [password('casuser', 'Mellon')] });
      expect(again.tgt.id, 'the same user keeps the session').to.equal(tgt.id);
    });

    it('single sign-on needs a live session; a service without SSO, renew, or warn each stop it', async () => {
      const { login } = setUp();
      const { tgt } = await login.logIn({ ...visit, credentials: [password('casuser', 'Mellon')] });
      const session = { ...visit, sessionTgtId: tgt.id };
      expect(await login.begin({ ...session, service: APP })).to.have.property('kind', 'redirect');
      const nosso = await login.begin({ ...session, service: 'https://nosso.example.org/x' });
      expect(nosso).to.deep.include({ kind: 'credentials', principal: 'casuser' });
      expect(nosso.kind === 'credentials' && nosso.relyingParty?.service.name, 'the form names where the login goes on to').to.equal('nosso');
      expect(await login.begin({ ...session, service: APP, renew: true })).to.deep.include({ kind: 'credentials', principal: 'casuser' });
      expect(await login.begin({ ...session, service: APP, warn: true })).to.deep.equal({ kind: 'confirm', service: APP, principal: 'casuser' });
      expect(await login.begin({ ...visit, sessionTgtId: 'TGT-1-gone', service: APP, gateway: true })).to.deep.equal({ kind: 'redirect', service: APP });
      // gateway shows no page: the confirmation warn asks for is none either, and no ticket is granted without it.
      expect(await login.begin({ ...session, service: APP, warn: true, gateway: true })).to.deep.equal({ kind: 'redirect', service: APP });
    });
  });
});
