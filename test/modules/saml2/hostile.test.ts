import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Browser } from '../../support/browser.js';
import type { Tessera } from '../../support/tessera.js';
import { freePort } from '../oidc/support.js';
import { acsOf, spEntityId, spKeys, spService, startSaml, writeSpMetadata } from './support.js';

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
});
