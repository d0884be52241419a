import { expect } from 'chai';
import { SAML2_ON_MEMORY } from '../src/configurations.js';
import { makeFixtures, type Fixtures } from '../src/fixtures.js';
import { FORM, type SamlLoginSpec } from '../src/load-spec.js';
import { rowLoad } from '../src/rows.js';
import { AuthnRequestPool, authnRequest, idpFromMetadata, loginAnswer, openSamlSession, POST_SSO_PATH, SAML_SP, verifiedProfile, type SamlIdp } from '../src/saml-sp.js';
import { samlCredential } from '@tessera/testkit/modules/saml2';
import { drive } from '../dist/child.js';
import { startTessera, type TesseraProcess } from '../dist/processes/tessera-process.js';

const SSO = 'http://127.0.0.1:8443/cas/idp/profile/SAML2/POST/SSO';
const xmlOf = (body: string) => Buffer.from(new URLSearchParams(body).get('SAMLRequest')!, 'base64').toString('utf8');

describe('bench SAML row: the AuthnRequest pool', () => {
  it('makes AuthnRequests of the SP for the SSO endpoint, each with an ID of its own, issued when made', () => {
    const now = new Date('2026-12-07T03:00:00.000Z');
    const [first, second] = [authnRequest(SSO, now), authnRequest(SSO, now)];
    expect(first.id).to.match(/^_[0-9a-f]{40}$/);
    expect(second.id).to.not.equal(first.id);
    const xml = xmlOf(first.body);
    expect(xml).to.include(`ID="${first.id}"`).and.include('IssueInstant="2026-12-07T03:00:00.000Z"').and.include(`Destination="${SSO}"`);
    expect(xml).to.include(`AssertionConsumerServiceURL="${SAML_SP.acs}"`).and.include(`<saml:Issuer>${SAML_SP.entityId}</saml:Issuer>`);
    expect(new URLSearchParams(first.body).get('RelayState')).to.equal('bench');
  });

  it('hands out each request once, topping itself up with a batch once half is taken, however many are taken', () => {
    const scheduled: (() => void)[] = [];
    const pool = new AuthnRequestPool(() => authnRequest(SSO), 10, (work) => scheduled.push(work));
    const taken = new Set<string>();
    for (let turn = 0; turn < 5; turn++) taken.add(pool.take().id);
    expect([pool.ready, scheduled.length]).to.deep.equal([5, 0]);
    taken.add(pool.take().id);
    expect(scheduled.length, 'a top-up asked once half is taken').to.equal(1);
    taken.add(pool.take().id);
    expect(scheduled.length, 'and asked once only while it is pending').to.equal(1);
    scheduled.shift()!();
    expect([pool.ready, pool.refills]).to.deep.equal([13, 1]);
    for (let turn = 0; turn < 100; turn++) {
      taken.add(pool.take().id);
      scheduled.shift()?.();
    }
    expect(taken.size, 'no request handed out twice').to.equal(107);
    expect(pool.madeOnTheSpot).to.equal(0);
  });

  it('makes one on the spot, counted, when a top-up has not come in time, rather than hand one out again', () => {
    const pool = new AuthnRequestPool(() => authnRequest(SSO), 2, () => undefined);
    const ids = [pool.take(), pool.take(), pool.take(), pool.take()].map((request) => request.id);
    expect(new Set(ids).size).to.equal(4);
    expect(pool.madeOnTheSpot).to.equal(2);
    expect(() => new AuthnRequestPool(() => authnRequest(SSO), 1)).to.throw(/batch of at least 2/);
  });
});

// The row runs tessera from its build with the saml2 configuration the bench measures, its keys made
// by `tessera saml2 generate-keys` into the run's folder.
describe('bench SAML row: a browser with a session logs in to the SP, every answer checked', function () {
  this.timeout(120_000);
  let fixtures: Fixtures;
  let release: () => Promise<void> = () => Promise.resolve();
  let tessera: TesseraProcess;
  let idp: SamlIdp;
  let session: { readonly cookie: string; readonly samlResponse: string };
  before(async () => {
    fixtures = await makeFixtures();
    const prepared = await SAML2_ON_MEMORY.prepare(fixtures);
    release = prepared.release;
    tessera = await startTessera({ dir: `${fixtures.dir}/saml2`, settings: (audit) => ({ ...fixtures.settings(audit), ...prepared.settings }), poolSize: 1 });
    idp = await idpFromMetadata(`${tessera.origin}${tessera.base}/idp/metadata`);
    session = await openSamlSession(tessera.origin, tessera.base);
  });
  after(async () => {
    await tessera?.close();
    await release();
    fixtures?.remove();
  });

  const sso = () => `${tessera.origin}${tessera.base}${POST_SSO_PATH}`;

  it('logs the browser in through /login once: its Response verifies as the SP checks it, with the metadata’s certificate', async () => {
    expect(session.cookie).to.match(/(^|; )TGC=/);
    expect(idp.entityId).to.equal(`${tessera.origin}/cas/idp`);
    const profile = await verifiedProfile(session.samlResponse, idp);
    expect(profile.issuer).to.equal(idp.entityId);
    expect(profile['mail']).to.equal('casuser@example.org');
  });

  it('the load: every login of the run is the signed Response to its own request, a sample of them verified, nothing failed', async () => {
    const spec = rowLoad('saml', { origin: tessera.origin, base: tessera.base, x509Login: '' }, { tgts: [], sts: [], codes: [], saml: { sessions: [session.cookie], batch: 20 } }, 2, 2) as SamlLoginSpec;
    const outcome = await drive(spec);
    expect(outcome.problems, 'failed logins').to.deep.equal([]);
    expect([outcome.errors, outcome.non2xx]).to.deep.equal([0, 0]);
    expect(outcome.responses).to.be.above(2);
    expect(outcome.okPerSecond * outcome.seconds).to.be.closeTo(outcome.responses, 0.01);
    expect(outcome.p99).to.be.at.least(outcome.p50).and.above(0);
    expect(outcome.collected).to.have.length(3);
    for (const samlResponse of outcome.collected) expect((await verifiedProfile(samlResponse, idp)).nameID).to.be.a('string').and.not.equal('');
    // 20 a batch, topped up by 20 each time only 10 are left (after the first 10 taken, then every 20):
    // every login had a request of its own, made ahead.
    expect(outcome.pool?.refills).to.be.at.least(Math.floor((outcome.responses - 10) / 20));
    expect(outcome.pool?.madeOnTheSpot).to.equal(0);
  });

  it('the load counts a login that does not end in the Response as failed, saying where it stopped: a browser without a session gets the /login form', async () => {
    const spec = rowLoad('saml', { origin: tessera.origin, base: tessera.base, x509Login: '' }, { tgts: [], sts: [], codes: [], saml: { sessions: ['nothing=1'], batch: 20 } }, 1, 1) as SamlLoginSpec;
    const outcome = await drive(spec);
    expect(outcome.responses).to.be.above(0);
    expect([outcome.okPerSecond, outcome.non2xx, outcome.collected]).to.deep.equal([0, outcome.responses, []]);
    expect(outcome.problems).to.deep.equal([`${outcome.responses} × /login: status 200, not back to the callback with a ticket`]);
  });

  it('answers an AuthnRequest ID it accepted before with a refusal to the SP, a 200 page the check tells from a success: why the row needs a fresh request each', async () => {
    const request = authnRequest(sso());
    const post = () => fetch(sso(), { method: 'POST', redirect: 'manual', headers: { ...FORM, cookie: session.cookie }, body: request.body });
    expect((await post()).status).to.equal(303);
    const again = await post();
    expect(again.status).to.equal(200);
    expect(loginAnswer(again.status, await again.text(), request.id)).to.deep.equal({ problem: 'a Response with status urn:oasis:names:tc:SAML:2.0:status:Requester' });
  });

  it('the check of an answer refuses what is not the success: an error page, another status, another request, another ACS, no signature', () => {
    const page = (xml: string, action: string = SAML_SP.acs) => `<form method="post" action="${action}">\n<input type="hidden" name="SAMLResponse" value="${Buffer.from(xml).toString('base64')}">\n</form>`;
    const xml = Buffer.from(session.samlResponse, 'base64').toString('utf8');
    const requestId = /InResponseTo="([^"]+)"/.exec(xml)![1]!;
    expect(loginAnswer(200, page(xml), requestId)).to.have.property('samlResponse');
    expect(loginAnswer(400, page(xml), requestId)).to.deep.equal({ problem: 'status 400' });
    expect(loginAnswer(200, '<p>This login was answered already</p>', requestId)).to.deep.equal({ problem: 'a 200 page without the form posting a SAMLResponse' });
    expect(loginAnswer(200, page(xml.replace(':status:Success', ':status:Requester')), requestId)).to.deep.equal({ problem: 'a Response with status urn:oasis:names:tc:SAML:2.0:status:Requester' });
    expect(loginAnswer(200, page(xml), '_another')).to.have.property('problem').that.matches(/not to the request sent/);
    expect(loginAnswer(200, page(xml, 'https://elsewhere.example/acs'), requestId)).to.have.property('problem').that.matches(/not to the SP's AssertionConsumerService/);
    expect(loginAnswer(200, page(xml.replace(/<(\w+:)?Signature\b[\s\S]*<\/(\w+:)?Signature>/, '')), requestId)).to.deep.equal({ problem: 'a Response without a signed Assertion' });
  });

  it('the sample check refuses a Response whose assertion was changed, or that another key signed', async () => {
    const xml = Buffer.from(session.samlResponse, 'base64').toString('utf8');
    const changed = Buffer.from(xml.replace('casuser@example.org', 'mallory@example.org')).toString('base64');
    await expectRejection(verifiedProfile(changed, idp), /signature/i);
    await expectRejection(verifiedProfile(session.samlResponse, { ...idp, certificate: (await samlCredential('CN=another idp')).certificate }), /signature/i);
  });
});

async function expectRejection(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  expect(outcome, 'refused').to.be.instanceOf(Error);
  expect(outcome!.message).to.match(pattern);
}
