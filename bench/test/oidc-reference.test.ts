import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@tessera/testkit';
import { makeFixtures, OIDC_CLIENT, oidcReferenceSettings, oidcSettings, type Fixtures } from '../src/fixtures.js';
import { FORM } from '../src/load-spec.js';
import { mirrorDifferences, refuseUnlessMirrored } from '../src/oidc-mirror.js';
import { openOidcSession, silentCode, tokensFor } from '../src/oidc-session.js';
import { startOidcReference } from '../dist/processes/oidc-reference.js';
import { startTessera } from '../dist/processes/tessera-process.js';
import { codeExchangeBody, type TesseraTarget } from '../src/rows.js';

// The OIDC rows are judged against node-oidc-provider alone: that holds only while it is configured as
// tessera configures the library and answers the rows' requests alike. Both run from their builds, as
// the bench starts them.
describe('bench reference of the OIDC rows: node-oidc-provider alone with tessera’s settings', function () {
  this.timeout(60_000);
  let fixtures: Fixtures;
  before(async () => {
    fixtures = await makeFixtures();
  });
  after(() => fixtures.remove());

  const reference = async (name: string, change: (settings: ReturnType<typeof oidcReferenceSettings>) => ReturnType<typeof oidcReferenceSettings> = (same) => same) => {
    const dir = join(fixtures.dir, name);
    mkdirSync(dir, { recursive: true });
    const server = await startOidcReference(change(oidcReferenceSettings(await freePort(), fixtures.oidcKeys)), dir, 1);
    return { server, target: { origin: server.origin, base: '/cas', x509Login: '' } satisfies TesseraTarget };
  };
  const browser = async (target: TesseraTarget) => {
    const cookie = await openOidcSession(target);
    return { cookie, token: await tokensFor(target, await silentCode(target, cookie)) };
  };

  it('answers as tessera does: discovery, the token answer, the ID token and userinfo, for the same client and user', async () => {
    const port = await freePort();
    const own = await startTessera({ dir: join(fixtures.dir, 'oidc'), settings: (audit) => ({ ...fixtures.settings(audit), storage: { type: 'memory' }, ...oidcSettings(port, fixtures.oidcKeys) }), poolSize: 1 });
    const library = await reference('library');
    try {
      const ownTarget = { origin: own.origin, base: own.base, x509Login: '' };
      const [ownBrowser, libraryBrowser] = await Promise.all([browser(ownTarget), browser(library.target)]);
      expect(await mirrorDifferences({ target: ownTarget, token: ownBrowser.token }, { target: library.target, token: libraryBrowser.token })).to.deep.equal([]);
    } finally {
      await Promise.allSettled([own.close(), library.server.close()]);
    }
  });

  it('gives a fresh code for every silent authorization of the logged-in browser, and refuses a code redeemed twice', async () => {
    const { server, target } = await reference('codes');
    try {
      const { cookie } = await browser(target);
      const [first, second] = [await silentCode(target, cookie), await silentCode(target, cookie)];
      expect(first).to.not.equal(second);
      expect((await tokensFor(target, first)).token_type).to.equal('Bearer');
      const again = await fetch(`${target.origin}/cas/oidc/token`, { method: 'POST', headers: { ...FORM, authorization: OIDC_CLIENT.basic }, body: codeExchangeBody(first) });
      expect([again.status, ((await again.json()) as { error?: string }).error]).to.deep.equal([400, 'invalid_grant']);
    } finally {
      await server.close();
    }
  });

  it('the mirror check names every answer that differs, and the bench refuses to run on a reference configured otherwise, naming them', async () => {
    const own = await reference('own');
    const other = await reference('other', (settings) => ({ ...settings, scopes: settings.scopes.filter((scope) => scope !== 'phone'), account: { ...settings.account, claims: { email: 'casuser@example.org' } } }));
    try {
      const [ownBrowser, otherBrowser] = await Promise.all([browser(own.target), browser(other.target)]);
      const differences = await mirrorDifferences({ target: own.target, token: ownBrowser.token }, { target: other.target, token: otherBrowser.token });
      expect(differences.map((difference) => difference.split(':').slice(0, 2).join(':'))).to.have.members([
        'discovery: claims_supported',
        'discovery: scopes_supported',
        'ID token claims: email',
        'userinfo: email',
      ]);
      expect(() => refuseUnlessMirrored('oidc', differences)).to.throw(/node-oidc-provider alone does not answer as tessera \(oidc\) does[^]*discovery: scopes_supported[^]*userinfo: email/);
      expect(() => refuseUnlessMirrored('oidc', [])).to.not.throw();
    } finally {
      await Promise.allSettled([own.server.close(), other.server.close()]);
    }
  });
});
