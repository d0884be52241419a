import { expect } from 'chai';
import { startCasFixture, type CasFixture } from './cas-fixture.js';
import { skipUnlessInstalled } from './harness.js';
import { runPerlClient, type PerlOutcome } from './perl-clients.js';

// AuthCAS puts the service into the query unencoded (only `&` is escaped), so a query string is a fair test.
const SERVICE = 'https://authcas.example.org/app?x=1&y=two';
const OTHER_SERVICE = 'https://authcas.example.org/other';

function validateWith(fixture: CasFixture, method: 'validateST' | 'validatePT', service: string, ticket: string, caFile = fixture.caFile): Promise<PerlOutcome> {
  return runPerlClient('authcas.pl', [fixture.url, caFile, method, service, ticket]);
}

// docs/protocol.md §3, checked by Perl AuthCAS 1.7: HTTPS only, HTTP/1.0 without User-Agent, a regex XML reader
// that ignores the HTTP status (so tessera's default 400 for failures is fine).
describe('AuthCAS validates tessera service tickets (docs/protocol.md §3)', function () {
  this.timeout(30_000);
  let fixture: CasFixture | undefined;
  before(async function () {
    skipUnlessInstalled(this, 'AuthCAS', [['perl', '-MAuthCAS', '-MIO::Socket::SSL', '-MJSON::PP', '-e1']]);
    fixture = await startCasFixture({ serviceUrls: [SERVICE, OTHER_SERVICE] });
  });
  after(() => fixture?.close());

  it('validateST (/serviceValidate): accepts a fresh ticket as casuser', async () => {
    const outcome = await validateWith(fixture!, 'validateST', SERVICE, await fixture!.ticketFor(SERVICE));
    expect(outcome, JSON.stringify(outcome)).to.include({ outcome: 'success', user: 'casuser' });
  });

  it('validatePT (/proxyValidate): accepts a plain service ticket', async () => {
    const outcome = await validateWith(fixture!, 'validatePT', SERVICE, await fixture!.ticketFor(SERVICE));
    expect(outcome, JSON.stringify(outcome)).to.include({ outcome: 'success', user: 'casuser' });
  });

  it('refuses a replayed ticket', async () => {
    const ticket = await fixture!.ticketFor(SERVICE);
    expect((await validateWith(fixture!, 'validateST', SERVICE, ticket)).outcome).to.equal('success');
    const replay = await validateWith(fixture!, 'validateST', SERVICE, ticket);
    expect(replay.outcome).to.equal('failure');
    expect(replay.error).to.match(/^Failed to validate Service Ticket /);
  });

  it('refuses a ticket issued for another service', async () => {
    const outcome = await validateWith(fixture!, 'validateST', SERVICE, await fixture!.ticketFor(OTHER_SERVICE));
    expect(outcome.outcome).to.equal('failure');
    expect(outcome.error).to.match(/^Failed to validate Service Ticket /);
  });

  it('refuses to talk to tessera when its certificate is not of the CA it trusts', async () => {
    const outcome = await validateWith(fixture!, 'validateST', SERVICE, await fixture!.ticketFor(SERVICE), fixture!.strangerCaFile);
    expect(outcome.outcome).to.equal('failure');
    expect(outcome.error).to.include('certificate verify failed');
  });
});
