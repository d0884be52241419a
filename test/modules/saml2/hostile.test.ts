import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Browser } from '../../support/browser.js';
import type { Tessera } from '../../support/tessera.js';
import { freePort } from '../oidc/support.js';
import { acsOf, CAS, idpOf, scriptedSp, spEntityId, spKeys, SpreadBrowser, spService, startSaml, statusOf, walk, writeSpMetadata, type Idp, type SpKeys } from './support.js';

const CASUSER = ['casuser', 'Mellon'] as const;
const ALICE = ['alice', 'secret'] as const;

const unsolicited = (base: string, target: string) =>
  `${base}/idp/profile/SAML2/Unsolicited/SSO?${new URLSearchParams({ providerId: spEntityId('plain'), shire: acsOf('plain'), target }).toString()}`;

// docs/modules/saml2.md (Endpoints): every SSO request an unauthenticated browser makes is kept
// while it logs in (saml2.pending), so the throttle's request-rate limit of authorization requests
// (throttle.authorization) sees the SSO endpoints as it sees OpenID Connect's.
describe('saml2: hostile input', () => {
  describe("the throttle's request-rate limit", () => {
    let tessera: Tessera;
    before(async () => {
      const keys = await spKeys();
      const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-hostile-'));
      const port = await freePort();
      tessera = await startSaml([spService(70, 'plain', writeSpMetadata(folder, 'plain', keys))], {
        modules: ['rest', 'login', 'throttle', 'saml2'],
        server: { host: '127.0.0.1', port, nodeName: 'e2e', trustProxy: true, publicUrl: `http://127.0.0.1:${port}` },
        throttle: { authorization: { requestsPerSecond: 0.01, burst: 3 } },
      });
    });
    after(() => tessera.close());

    it('an address past throttle.authorization gets 429 with Retry-After and an error page at every SSO endpoint; another address does not', async () => {
      const address = { 'x-forwarded-for': '198.51.100.42' };
      for (const target of ['1', '2', '3']) expect((await new Browser(address).get(unsolicited(tessera.url, target))).status).to.equal(303);
      const refused = await new Browser(address).get(unsolicited(tessera.url, '4'));
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(refused.headers.get('content-type')).to.match(/^text\/html/);
      expect(refused.body).to.contain('Too many sign-on requests');
      expect(refused.location).to.equal(null);
      for (const path of ['/idp/profile/SAML2/Redirect/SSO?SAMLRequest=x', '/idp/profile/SAML2/POST/SSO']) {
        const page = path.includes('POST') ? await new Browser(address).post(`${tessera.url}${path}`, { SAMLRequest: 'x' }) : await new Browser(address).get(`${tessera.url}${path}`);
        expect(page.status, path).to.equal(429);
      }
      expect((await new Browser({ 'x-forwarded-for': '198.51.100.43' }).get(unsolicited(tessera.url, 'other'))).status).to.equal(303);
    });
  });

  // docs/modules/saml2.md (Endpoints): a pending login is answered to the browser that sent the request.
  describe('a pending login belongs to the browser it was started in', () => {
    let tessera: Tessera;
    let keys: SpKeys;
    let idp: Idp;
    before(async () => {
      keys = await spKeys();
      const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-hostile-'));
      const staffOnly = { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] } };
      tessera = await startSaml([spService(71, 'plain', writeSpMetadata(folder, 'plain', keys)), spService(72, 'staff', writeSpMetadata(folder, 'staff', keys), { accessStrategy: staffOnly })], {
        users: [
          { username: 'casuser', password: 'Mellon', attributes: { mail: ['casuser@example.org'], memberOf: ['staff'] } },
          { username: 'alice', password: 'secret', attributes: { mail: ['alice@example.org'], memberOf: ['students'] } },
        ],
      });
      idp = await idpOf(tessera.url);
    });
    after(() => tessera.close());

    it("another browser that has the pending login's URL cannot finish it (nor its refusal); the browser that started it still can", async () => {
      const victim = new SpreadBrowser(tessera.url, [tessera]);
      const started = await victim.get(await scriptedSp('plain', keys, idp).getAuthorizeUrlAsync('victim', undefined, {}));
      expect(started.status).to.equal(303);
      expect(started.headers.get('set-cookie')).to.match(/^TSAML2_[A-Za-z0-9_-]+=[A-Za-z0-9_-]{43}; path=\/cas\/idp\/profile\/SAML2; expires=[^;]+; samesite=lax; httponly$/);
      const attacker = new SpreadBrowser(tessera.url, [tessera]);
      const hijacked = await walk(attacker, await attacker.get(started.location!), { user: ALICE });
      expect(hijacked.response, 'no Response for another browser').to.equal(undefined);
      expect(hijacked.page.status).to.equal(400);
      expect(hijacked.page.body).to.contain('This login was started in another browser');
      const own = await walk(victim, await victim.get(started.location!), { user: CASUSER });
      expect(statusOf(own.response!.xml)).to.deep.equal(['Success']);
      expect(own.response!.xml).to.contain('InResponseTo=');
      expect(own.response!.RelayState).to.equal('victim');
      expect(own.page.headers.get('set-cookie'), 'the cookie is cleared once answered').to.match(/^TSAML2_[A-Za-z0-9_-]+=; path=\/cas\/idp\/profile\/SAML2; expires=Thu, 01 Jan 1970/);

      const refusedOne = new SpreadBrowser(tessera.url, [tessera]);
      const refusedStart = await refusedOne.get(await scriptedSp('staff', keys, idp).getAuthorizeUrlAsync('', undefined, {}));
      const refusalUrl = new URL(new URL(refusedStart.location!).searchParams.get('service')!.replace('/Callback/', '/Refused/'));
      const forged = await attacker.get(refusalUrl.href);
      expect(forged.status).to.equal(400);
      expect(forged.body).to.contain('This login was started in another browser');
      const denied = await walk(refusedOne, refusedStart, { user: ALICE });
      expect(statusOf(denied.response!.xml)).to.deep.equal(['Responder', 'RequestDenied']);
    });
  });

  // docs/modules/saml2.md (Endpoints): what one address keeps pending is bounded (saml2.pendingPerAddress).
  describe('pending logins per client address', () => {
    let tessera: Tessera;
    before(async () => {
      const keys = await spKeys();
      const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-hostile-'));
      const port = await freePort();
      tessera = await startSaml([spService(73, 'plain', writeSpMetadata(folder, 'plain', keys))], {
        server: { host: '127.0.0.1', port, nodeName: 'e2e', trustProxy: true, publicUrl: `http://127.0.0.1:${port}` },
        users: [{ username: 'casuser', password: 'Mellon', attributes: { mail: ['casuser@example.org'] } }],
        saml2: { keyFile: join(folder, 'saml2-keys.json'), pendingPerAddress: 2 },
      });
    });
    after(() => tessera.close());

    it("past saml2.pendingPerAddress, the address's earliest pending login is dropped (/login refuses it, no Response); the later ones and another address's still log in", async () => {
      const start = async (address: string, target: string) => {
        const through = new SpreadBrowser(tessera.url, [tessera], { 'x-forwarded-for': address });
        return { through, started: await through.get(unsolicited(tessera.url, target)) };
      };
      const first = await start('198.51.100.50', 'first');
      const elsewhere = await start('198.51.100.51', 'elsewhere');
      const later = [await start('198.51.100.50', 'second'), await start('198.51.100.50', 'third')];
      const dropped = await walk(first.through, first.started, { user: CASUSER });
      expect(dropped.response).to.equal(undefined);
      // /login no longer knows the callback of a dropped login: a service that stands for nothing.
      expect(dropped.page.status).to.equal(403);
      for (const [index, kept] of [...later, elsewhere].entries()) {
        const walked = await walk(kept.through, kept.started, { user: CASUSER });
        expect(walked.response?.RelayState, walked.shown.join(' > ')).to.equal(['second', 'third', 'elsewhere'][index]);
      }
    });
  });
});
