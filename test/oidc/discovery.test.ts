import { expect } from 'chai';
import { Browser, headingOf } from '../support/browser.js';
import type { Tessera } from '../support/tessera.js';
import { CLIENT_ID, CLIENT_SECRET, follow, REDIRECT_URI, RP_SERVICE, startOidc } from './support.js';

/** A client registered with every response type and grant type a client may have. */
const EVERY_FLOW = {
  ...RP_SERVICE,
  supportedResponseTypes: ['java.util.HashSet', ['code', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token', 'none']],
  supportedGrantTypes: ['java.util.HashSet', ['authorization_code', 'implicit', 'refresh_token', 'client_credentials']],
};

/** The parameters of the redirect back to the client: its fragment's, else its query's. */
function answerOf(location: string): URLSearchParams {
  const url = new URL(location);
  return new URLSearchParams(url.hash === '' ? url.search : url.hash.slice(1));
}

// docs/modules/oidc.md (Flows): discovery advertises the response and grant types the server serves,
// each proved here by a client registered for it, and no other (`token`, OAuth's implicit, is refused).
describe('oidc: discovery advertises what the server serves', () => {
  let tessera: Tessera;
  let discovery: { response_types_supported: string[]; grant_types_supported: string[] };
  const browser = new Browser();
  before(async () => {
    tessera = await startOidc({ services: [EVERY_FLOW] });
    discovery = (await (await fetch(`${tessera.url}/oidc/.well-known/openid-configuration`)).json()) as typeof discovery;
    // One login; every authorization below is by single sign-on.
    const page = await browser.get(`${tessera.url}/login`);
    await browser.submit(page, { username: 'casuser', password: 'Mellon' });
  });
  after(() => tessera.close());

  async function authorize(responseType: string): Promise<URLSearchParams> {
    const query = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: responseType, scope: 'openid email', nonce: 'n-0S6_WzA2Mj', state: 'st' });
    const visit = await follow(browser, await browser.get(`${tessera.url}/oidc/auth?${query.toString()}`), tessera.url);
    expect(headingOf(visit.body), visit.body).to.equal(undefined);
    expect(visit.location, responseType).to.match(new RegExp(`^${REDIRECT_URI}[?#]`));
    return answerOf(visit.location!);
  }

  it('every response type advertised is served: the code, ID token and access token it names, and nothing else', async () => {
    expect(discovery.response_types_supported).to.include('code');
    for (const responseType of discovery.response_types_supported) {
      const answer = await authorize(responseType);
      expect(answer.get('error'), `${responseType}: ${answer.toString()}`).to.equal(null);
      const parts = responseType.split(' ');
      for (const [part, parameter] of [['code', 'code'], ['id_token', 'id_token'], ['token', 'access_token']] as const) {
        expect(answer.has(parameter), `${responseType} → ${parameter}`).to.equal(parts.includes(part));
      }
      expect(answer.get('state'), responseType).to.equal('st');
    }
  });

  it('pushed authorization requests (PAR) are neither advertised nor served: what a request keeps is bounded at /oidc/auth only', async () => {
    expect(discovery).to.not.have.property('pushed_authorization_request_endpoint');
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    const pushed = await fetch(`${tessera.url}/oidc/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid', state: 's'.repeat(20_000) }).toString(),
    });
    expect(pushed.status).to.equal(404);
    const query = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid', request_uri: 'urn:ietf:params:oauth:request_uri:x' });
    const visit = await follow(browser, await browser.get(`${tessera.url}/oidc/auth?${query.toString()}`), tessera.url);
    expect(answerOf(visit.location!).get('error')).to.equal('request_uri_not_supported');
  });

  it('`token` (OAuth\'s implicit flow) is neither advertised nor served', async () => {
    expect(discovery.response_types_supported).to.not.include('token');
    expect((await authorize('token')).get('error')).to.equal('unsupported_response_type');
  });

  it("every grant type advertised is served: a code redeemed, an implicit answer, a refresh, the client's own token", async () => {
    expect([...discovery.grant_types_supported].sort()).to.deep.equal(['authorization_code', 'client_credentials', 'implicit', 'refresh_token']);
    const code = (await authorize('code')).get('code')!;
    const token = (fields: Record<string, string>) =>
      fetch(`${tessera.url}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}` },
        body: new URLSearchParams(fields).toString(),
      });
    // The client's generateRefreshToken: a refresh token with every code.
    const redeemed = (await (await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI })).json()) as { access_token?: string; refresh_token?: string };
    expect(redeemed.access_token).to.be.a('string');
    expect((await authorize('id_token token')).get('access_token')).to.be.a('string');
    expect(redeemed.refresh_token).to.be.a('string');
    expect((await token({ grant_type: 'refresh_token', refresh_token: redeemed.refresh_token! })).status).to.equal(200);
    // A token for the client itself.
    expect((await token({ grant_type: 'client_credentials' })).status).to.equal(200);
  });
});
