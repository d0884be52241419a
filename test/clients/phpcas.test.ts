import { expect } from 'chai';
import { skipUnlessPhpcas, startPhpcasApp, type PhpcasApp } from './phpcas-app.js';

// docs/protocol.md §3, checked by phpCAS 1.6 (CAS_VERSION_3_0: /p3/serviceValidate over HTTPS) in `php -S`.
describe('phpCAS validates tessera service tickets (docs/protocol.md §3)', function () {
  this.timeout(30_000);
  let app: PhpcasApp | undefined;
  let page = '';
  let otherPage = '';

  before(async function () {
    skipUnlessPhpcas(this);
    app = await startPhpcasApp({ pages: ['app.php', 'other.php'] });
    page = app.url('app.php');
    otherPage = app.url('other.php');
  });
  after(() => app?.close());

  const answerOf = (response: Response) => app!.answerOf(response);

  it('accepts a fresh ticket, redirects to the clean URL with a session, and reports casuser with attributes', async () => {
    const ticket = await app!.fixture.ticketFor(page);
    const landing = await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' });
    expect(landing.status, app!.php.output()).to.equal(302);
    expect(landing.headers.get('location')).to.equal(page);
    const session = landing.headers.get('set-cookie')?.split(';')[0];
    expect(session).to.match(/^PHPSESSID=/);

    const answer = await answerOf(await fetch(page, { headers: { cookie: session! }, redirect: 'manual' }));
    expect(answer.user).to.equal('casuser');
    expect(answer.attributes?.['mail']).to.equal('casuser@example.org');
    expect(answer.attributes?.['memberOf']).to.deep.equal(['staff', 'faculty']);
  });

  it('refuses a replayed ticket (INVALID_TICKET)', async () => {
    const ticket = await app!.fixture.ticketFor(page);
    expect((await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' })).status).to.equal(302);
    const replay = await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' });
    expect(replay.status).to.equal(401);
    expect((await answerOf(replay)).error).to.include('Reason: [INVALID_TICKET]');
  });

  it('refuses a ticket issued for another service (INVALID_SERVICE)', async () => {
    const ticket = await app!.fixture.ticketFor(otherPage);
    const response = await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' });
    expect(response.status).to.equal(401);
    expect((await answerOf(response)).error).to.include('Reason: [INVALID_SERVICE]');
  });

  describe("trusting another CA than the one of tessera's certificate", () => {
    let wary: PhpcasApp | undefined;
    before(async () => {
      wary = await startPhpcasApp({ pages: ['app.php'], trust: 'stranger' });
    });
    after(() => wary?.close());

    it('refuses a fresh ticket: the TLS handshake fails, so it has no answer from tessera', async () => {
      const warysPage = wary!.url('app.php');
      const response = await fetch(`${warysPage}?ticket=${await wary!.fixture.ticketFor(warysPage)}`, { redirect: 'manual' });
      expect(response.status, wary!.php.output()).to.equal(401);
      expect((await wary!.answerOf(response)).error).to.include('Reason: no response from the CAS server');
    });
  });
});
