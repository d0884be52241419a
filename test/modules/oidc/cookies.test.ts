import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { describeWithRedis } from '@tessera/testkit/redis';
import type { StartOptions } from '@tessera/cli-server';
import { Browser, headingOf, type Visit } from '../../support/browser.js';
import type { Tessera } from '../../support/tessera.js';
import { CLIENT_ID, freePort, REDIRECT_URI, startOidc } from './support.js';

const authorizeQuery = new URLSearchParams({
  client_id: CLIENT_ID,
  redirect_uri: REDIRECT_URI,
  response_type: 'code',
  scope: 'openid email',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
}).toString();

const INTERACTION_SECONDS = 1800;

/** One Set-Cookie header: its name and attributes, names lowercased. */
function parseSetCookie(header: string): { name: string; attributes: Map<string, string> } {
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  return { name: pair!.slice(0, pair!.indexOf('=')), attributes: new Map(attributes.map((attribute) => [attribute.split('=')[0]!.toLowerCase(), attribute.slice(attribute.indexOf('=') + 1)])) };
}

/**
 * The provider's cookies a browser is sent on its way from an authorization request to the code, through
 * the login form: the request made at `first`, every later one at `tessera` (another node, or the same).
 */
async function providerCookies(tessera: Tessera, publicBase: string, headers: Record<string, string>, seenOver: 'as-sent' | 'https', first = tessera): Promise<string[]> {
  const browser = new Browser(headers, seenOver);
  const visits: Visit[] = [];
  let current = await browser.get(`${first.url}/oidc/auth?${authorizeQuery}`);
  for (let hops = 0; hops < 12; hops++) {
    visits.push(current);
    if (headingOf(current.body) === 'Log in') current = await browser.submit(current, { username: 'casuser', password: 'Mellon' });
    else if (current.location?.startsWith(publicBase) === true) current = await browser.get(`${tessera.url}${current.location.slice(publicBase.length)}`);
    else break;
  }
  expect(current.location, current.body).to.match(/^https:\/\/rp\.example\.org\/callback\?code=/);
  return visits.flatMap((visit) => visit.setCookies).filter((header) => header.startsWith('OIDC_'));
}

// docs/modules/oidc.md (Cookies): every cookie the provider sets (session, interaction, resume, each
// with its .sig) is Secure when server.publicUrl is https, whatever the proxy says (else only when the
// request came over TLS, by trustProxy's X-Forwarded-Proto, as the login module's cookies), for the base
// path, and lives no longer than what it stands for: the session's ends with the browser, as the TGC.
describe('oidc: the provider\'s cookies', () => {
  for (const https of [false, true]) {
    for (const trustProxy of [false, true]) {
      describe(`public URL ${https ? 'https' : 'http'}, trustProxy ${trustProxy}`, () => {
        let tessera: Tessera;
        let publicBase: string;
        before(async () => {
          const port = await freePort();
          const publicUrl = https ? 'https://sso.example.org' : `http://127.0.0.1:${port}`;
          publicBase = `${publicUrl}/cas`;
          tessera = await startOidc({ server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl, trustProxy } });
        });
        after(() => tessera.close());

        for (const forwardedProto of [undefined, 'https', 'http']) {
          const secure = https || (trustProxy && forwardedProto === 'https');
          it(`X-Forwarded-Proto ${forwardedProto ?? 'absent'}: ${secure ? 'Secure' : 'not Secure'}, under /cas, the session cookie ends with the browser`, async () => {
            const headers = forwardedProto === undefined ? {} : { 'x-forwarded-proto': forwardedProto };
            const sent = await providerCookies(tessera, publicBase, headers, secure ? 'https' : 'as-sent');
            const cookies = sent.map(parseSetCookie);
            expect(new Set(cookies.map((cookie) => cookie.name))).to.deep.equal(new Set(['OIDC_INTERACTION', 'OIDC_INTERACTION.sig', 'OIDC_RESUME', 'OIDC_RESUME.sig', 'OIDC_SESSION', 'OIDC_SESSION.sig']));
            const now = Date.now();
            for (const [index, { name, attributes }] of cookies.entries()) {
              expect(attributes.has('secure'), sent[index]).to.equal(secure);
              expect(attributes.has('httponly'), sent[index]).to.equal(true);
              const path = attributes.get('path')!;
              expect(path === '/cas' || path.startsWith('/cas/'), sent[index]).to.equal(true);
              const expires = attributes.get('expires');
              if (name.startsWith('OIDC_SESSION')) {
                expect(path, sent[index]).to.equal('/cas');
                expect(expires, sent[index]).to.equal(undefined);
                expect(attributes.has('max-age'), sent[index]).to.equal(false);
              } else if (expires !== undefined && Date.parse(expires) > 0) {
                expect(Date.parse(expires) - now, sent[index]).to.be.at.most(INTERACTION_SECONDS * 1000 + 1000);
              }
            }
          });
        }
      });
    }
  }

  it('the stored provider session lives no longer than tickets.tgt.maxTimeToLiveSeconds', async () => {
    const database = new FakeDatabase();
    const tessera = await startOidc(
      { storage: { type: 'mongo', mongo: { uri: 'mongodb://fake.invalid' } }, tickets: { tgt: { maxTimeToLiveSeconds: 900 } } },
      { mongoDatabase: database as unknown as NonNullable<StartOptions['mongoDatabase']> },
    );
    try {
      const started = Date.now();
      await providerCookies(tessera, tessera.url, {}, 'as-sent');
      const sessions = await database.collection('records').find({ namespace: 'oidc.session' }).toArray();
      expect(sessions).to.have.length(1);
      const expiresAt = (sessions[0]!['expiresAt'] as Date).getTime();
      // The login's time is in whole seconds: up to one more.
      expect(expiresAt - started).to.be.within(0, 900_000 + 2000);
    } finally {
      await tessera.close();
    }
  });
});

describeWithRedis('oidc: the provider\'s cookies across two nodes on one Redis', (redis) => {
  let a: Tessera;
  let b: Tessera;
  let prefix: string;
  before(async function () {
    this.timeout(60_000);
    const folder = mkdtempSync(join(tmpdir(), 'tessera-oidc-cookies-'));
    const [portA, portB] = [await freePort(), await freePort()];
    prefix = `cookies${randomBytes(4).toString('hex')}:`;
    const shared = {
      storage: { type: 'redis', redis: { url: redis().url, keyPrefix: prefix } },
      login: { keyFile: join(folder, 'login-key.json') },
      oidc: { keyFile: join(folder, 'oidc-keys.json') },
      tickets: { tgt: { maxTimeToLiveSeconds: 900 } },
    };
    a = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portA, nodeName: 'node-a', publicUrl: 'https://sso.example.org' } });
    b = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portB, nodeName: 'node-b', publicUrl: 'https://sso.example.org' } });
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('an authorization started at A and finished at B: every cookie Secure and under /cas, the session cookie ends with the browser, its record with the longest login session', async () => {
    const started = Date.now();
    const sent = await providerCookies(b, 'https://sso.example.org/cas', {}, 'https', a);
    for (const header of sent) {
      const { name, attributes } = parseSetCookie(header);
      expect(attributes.has('secure'), header).to.equal(true);
      expect(attributes.get('path')!.startsWith('/cas'), header).to.equal(true);
      if (name.startsWith('OIDC_SESSION')) expect(attributes.has('expires') || attributes.has('max-age'), header).to.equal(false);
    }
    const sessions = redis().cli('--scan', '--pattern', `${prefix}rec:oidc.session:*`).split('\n').filter((line) => line.trim() !== '');
    expect(sessions).to.have.length(1);
    // The record's own expiry (Redis's native TTL, a margin past it, only collects garbage).
    const expiresAt = Number(redis().cli('hget', sessions[0]!, 'expiresAt').trim());
    expect(expiresAt - started).to.be.within(0, 900_000 + 2000);
  });
});
