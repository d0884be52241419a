import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { describeWithRedis } from '@tessera/testkit/redis';
import { expect } from 'chai';
import { Browser, headingOf, type Visit } from '../../support/browser.js';
import type { Tessera } from '../../support/tessera.js';
import { startOidc } from './support.js';

const CAS = 'org.apereo.cas.services';
const SECRET = 'client-secret-of-at-least-16';
const STAFF = { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] } };
const ADMINS = { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['admins']] } };

/** Two definitions of one client whose client metadata is byte-identical: only their ids, evaluation orders and access rules differ. */
function definition(id: number, evaluationOrder: number, accessStrategy: Record<string, unknown>): Record<string, unknown> {
  return {
    '@class': `${CAS}.OidcRegisteredService`,
    id,
    evaluationOrder,
    name: 'Shadowed client',
    serviceId: '^https://shadowed\\.example\\.org/callback$',
    clientId: 'shadowed',
    clientSecret: SECRET,
    scopes: ['java.util.HashSet', ['openid', 'email']],
    bypassApprovalPrompt: true,
    attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy` },
    accessStrategy,
  };
}

// A token's account (userinfo, the ID token) is answered under the client's CURRENT definition, read
// from the registry on each request. The library keeps one Client per hash of the client's metadata,
// so definitions whose metadata is byte-identical share a Client, which therefore cannot tell which
// definition is current: a definition that comes back as the first (here after an evaluation-order
// change, the same object as before) must be the one that answers, as introspection already does.
/** The client's token and what each way of using it answers now, against `tessera()`. */
function clientOf(tessera: () => Tessera) {
  const basic = `Basic ${Buffer.from(`shadowed:${SECRET}`).toString('base64')}`;
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${tessera().url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic }, body: new URLSearchParams(fields).toString() });

  async function redefine(saved: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${tessera().url}/v1/services`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('casuser:Mellon').toString('base64')}` },
      body: JSON.stringify(saved),
    });
    expect(response.status, await response.clone().text()).to.equal(200);
  }

  async function accessToken(): Promise<string> {
    const browser = new Browser();
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'shadowed',
      redirect_uri: 'https://shadowed.example.org/callback',
      scope: 'openid email',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    let visit: Visit = await browser.get(`${tessera().url}/oidc/auth?${query.toString()}`);
    for (let hops = 0; hops < 10; hops++) {
      if (headingOf(visit.body) === 'Log in') visit = await browser.submit(visit, { username: 'casuser', password: 'Mellon' });
      else if (visit.location?.startsWith(tessera().url)) visit = await browser.get(visit.location);
      else break;
    }
    const code = new URL(visit.location!).searchParams.get('code')!;
    const tokens = (await (await form('/oidc/token', { grant_type: 'authorization_code', code, redirect_uri: 'https://shadowed.example.org/callback', code_verifier: verifier })).json()) as Record<string, string>;
    expect(tokens['access_token']).to.be.a('string');
    return tokens['access_token']!;
  }

  const uses = async (token: string) => ({
    userinfo: (await fetch(`${tessera().url}/oidc/me`, { headers: { authorization: `Bearer ${token}` } })).status,
    active: ((await (await form('/oidc/token/introspection', { token })).json()) as { active: boolean }).active,
  });
  return { redefine, accessToken, uses };
}

const REGISTRATION = { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' }, acceptedTypes: [`${CAS}.OidcRegisteredService`] };

describe('oidc: a token answered under the current definition when one comes back as the first again', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startOidc({ modules: ['rest', 'login', 'services', 'oidc'], registration: REGISTRATION, services: [definition(40, 1, STAFF), definition(41, 5, ADMINS)] });
  });
  after(() => tessera.close());
  const { redefine, accessToken, uses: usesOf } = clientOf(() => tessera);

  it('userinfo follows introspection: the refusing definition first again refuses the token at once', async () => {
    const token = await accessToken();
    const uses = () => usesOf(token);
    expect(await uses()).to.deep.equal({ userinfo: 200, active: true });
    // The refusing definition (41) first: the token serves no more.
    await redefine(definition(40, 10, STAFF));
    expect(await uses()).to.deep.equal({ userinfo: 401, active: false });
    // The admitting one first again.
    await redefine(definition(40, 1, STAFF));
    expect(await uses()).to.deep.equal({ userinfo: 200, active: true });
    // 41 first again: the same service object as before, its metadata object found again.
    await redefine(definition(40, 10, STAFF));
    expect(await uses()).to.deep.equal({ userinfo: 401, active: false });
  });
});

// The same on Redis storage with one definition: a configured definition a stored copy replaced comes
// back, as the same object on every listing, once the stored copy is removed (`tessera services remove`).
describeWithRedis('oidc: a configured definition back after its stored copy is removed (Redis storage)', (redis) => {
  let tessera: Tessera;
  const keyPrefix = `client-identity${randomBytes(4).toString('hex')}:`;
  before(async () => {
    tessera = await startOidc({
      modules: ['rest', 'login', 'services', 'oidc'],
      registration: REGISTRATION,
      storage: { type: 'redis', redis: { url: redis().url, keyPrefix } },
      services: [definition(50, 1, ADMINS)],
    });
  });
  after(() => tessera.close());
  const { redefine, accessToken, uses } = clientOf(() => tessera);
  const removeStoredCopy = () => expect(spawnSync('redis-cli', ['-p', String(redis().port), 'HDEL', `${keyPrefix}services`, '50'], { encoding: 'utf8' }).stdout.trim()).to.equal('1');

  it('the refusing configured definition refuses the token again each time it is back', async () => {
    await redefine(definition(50, 1, STAFF));
    const token = await accessToken();
    expect(await uses(token)).to.deep.equal({ userinfo: 200, active: true });
    removeStoredCopy();
    expect(await uses(token)).to.deep.equal({ userinfo: 401, active: false });
    await redefine(definition(50, 1, STAFF));
    expect(await uses(token)).to.deep.equal({ userinfo: 200, active: true });
    removeStoredCopy();
    expect(await uses(token)).to.deep.equal({ userinfo: 401, active: false });
  });
});
