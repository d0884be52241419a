import { expect } from 'chai';
import { skipUnlessPhpcas, startPhpcasApp, type PhpcasApp } from './phpcas-app.js';

// Apereo CAS protocol §4 (SAML 1.1), checked by phpCAS 1.6 in SAML_VERSION_1_1 mode: POST /samlValidate?TARGET= over HTTPS.
describe('phpCAS (SAML 1.1) logs in with a ticket granted for TARGET', function () {
  this.timeout(30_000);
  let app: PhpcasApp | undefined;
  let page = '';

  before(async function () {
    skipUnlessPhpcas(this);
    app = await startPhpcasApp({ pages: ['app.php'], protocol: 'saml11' });
    page = app.url('app.php');
  });
  after(() => app?.close());

  /** Logs in over REST and has the TGT grant an ST the SAML 1.1 way: the service named TARGET. */
  const targetTicket = () => app!.fixture.ticketFor(page, 'TARGET');

  const answerOf = (response: Response) => app!.answerOf(response);

  it('accepts the ticket and reports casuser with the released attributes, multi-valued kept', async () => {
    const landing = await fetch(`${page}?ticket=${await targetTicket()}`, { redirect: 'manual' });
    expect(landing.status, app!.php.output()).to.equal(302);
    const session = landing.headers.get('set-cookie')?.split(';')[0];
    expect(session).to.match(/^PHPSESSID=/);

    const answer = await answerOf(await fetch(page, { headers: { cookie: session! }, redirect: 'manual' }));
    expect(answer.user).to.equal('casuser');
    expect(answer.attributes?.['mail']).to.equal('casuser@example.org');
    expect(answer.attributes?.['memberOf']).to.deep.equal(['staff', 'faculty']);
  });

  it('refuses the same ticket a second time', async () => {
    const ticket = await targetTicket();
    expect((await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' })).status).to.equal(302);
    const replay = await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' });
    expect(replay.status).to.equal(401);
    const { error } = await answerOf(replay);
    expect(error).to.include('SA not validated').and.to.include('samlp:RequestDenied').and.to.include('not recognized');
  });
});
