import { expect } from 'chai';
import { startCasFixture, type CasFixture } from './cas-fixture.js';
import { skipUnlessInstalled } from './harness.js';
import { runPerlClient, type PerlOutcome } from './perl-clients.js';

// The client sends exactly this service string (URI-encoded), so the ticket is minted for it.
const SERVICE = 'https://perl.example.org/app?next=/home&lang=en';
const OTHER_SERVICE = 'https://perl.example.org/other';
const PROBES = [['perl', '-MAuthen::CAS::Client', '-MLWP::Protocol::https', '-MJSON::PP', '-e1']] as const;

type Method = 'validate' | 'service_validate' | 'proxy_validate';

function validateWith(fixture: CasFixture, method: Method, service: string, ticket: string, caFile = fixture.caFile): Promise<PerlOutcome> {
  return runPerlClient('authen-cas-client.pl', [fixture.url, caFile, method, service, ticket]);
}

// docs/protocol.md §3 (validation endpoints), checked by Perl Authen::CAS::Client 0.08 (LWP) over tessera's HTTPS listener.
describe('Authen::CAS::Client validates tessera service tickets (docs/protocol.md §3)', function () {
  this.timeout(30_000);
  before(function () {
    skipUnlessInstalled(this, 'Authen::CAS::Client', PROBES);
  });

  describe('with protocol.validationFailureStatus: 200, which this client needs', () => {
    let fixture: CasFixture | undefined;
    before(async () => {
      fixture = await startCasFixture({ serviceUrls: [SERVICE, OTHER_SERVICE], validationFailureStatus: 200 });
    });
    after(() => fixture?.close());

    it('service_validate (/serviceValidate): accepts a fresh ticket as casuser and reads the released attributes', async () => {
      const outcome = await validateWith(fixture!, 'service_validate', SERVICE, await fixture!.ticketFor(SERVICE));
      expect(outcome.outcome, JSON.stringify(outcome)).to.equal('success');
      expect(outcome.user).to.equal('casuser');
      expect(outcome.attributes?.['mail']).to.deep.equal(['casuser@example.org']);
      expect(outcome.attributes?.['memberOf']).to.deep.equal(['staff', 'faculty']);
    });

    it('proxy_validate (/proxyValidate): accepts a plain service ticket', async () => {
      const outcome = await validateWith(fixture!, 'proxy_validate', SERVICE, await fixture!.ticketFor(SERVICE));
      expect(outcome).to.include({ outcome: 'success', user: 'casuser' });
    });

    it('validate (CAS 1 /validate): accepts a fresh ticket as casuser', async () => {
      const outcome = await validateWith(fixture!, 'validate', SERVICE, await fixture!.ticketFor(SERVICE));
      expect(outcome).to.include({ outcome: 'success', user: 'casuser' });
    });

    it('refuses a replayed ticket with INVALID_TICKET', async () => {
      const ticket = await fixture!.ticketFor(SERVICE);
      expect((await validateWith(fixture!, 'service_validate', SERVICE, ticket)).outcome).to.equal('success');
      const replay = await validateWith(fixture!, 'service_validate', SERVICE, ticket);
      expect(replay).to.include({ outcome: 'failure', code: 'INVALID_TICKET' });
    });

    it('refuses a ticket issued for another service with INVALID_SERVICE', async () => {
      const outcome = await validateWith(fixture!, 'service_validate', SERVICE, await fixture!.ticketFor(OTHER_SERVICE));
      expect(outcome).to.include({ outcome: 'failure', code: 'INVALID_SERVICE' });
    });

    it('CAS 1 /validate: refuses a replayed ticket ("no")', async () => {
      const ticket = await fixture!.ticketFor(SERVICE);
      expect((await validateWith(fixture!, 'validate', SERVICE, ticket)).outcome).to.equal('success');
      expect(await validateWith(fixture!, 'validate', SERVICE, ticket)).to.include({ outcome: 'failure', code: 'V10_AUTH_FAILURE' });
    });

    it('refuses to talk to tessera when its certificate is not of the CA it trusts', async () => {
      const outcome = await validateWith(fixture!, 'service_validate', SERVICE, await fixture!.ticketFor(SERVICE), fixture!.strangerCaFile);
      expect(outcome.outcome).to.equal('error');
      expect(outcome.error).to.match(/^HTTP request failed: 500: .*certificate verify failed/);
    });
  });

  describe('with the default failure status 400', () => {
    let fixture: CasFixture | undefined;
    before(async () => {
      fixture = await startCasFixture({ serviceUrls: [SERVICE] });
    });
    after(() => fixture?.close());

    it('still accepts a fresh ticket', async () => {
      const outcome = await validateWith(fixture!, 'service_validate', SERVICE, await fixture!.ticketFor(SERVICE));
      expect(outcome).to.include({ outcome: 'success', user: 'casuser' });
    });

    it('refuses a replay, but as a transport error that loses the CAS failure code', async () => {
      const ticket = await fixture!.ticketFor(SERVICE);
      await validateWith(fixture!, 'service_validate', SERVICE, ticket);
      const replay = await validateWith(fixture!, 'service_validate', SERVICE, ticket);
      expect(replay.outcome).to.equal('error');
      expect(replay.error).to.match(/^HTTP request failed: 400/);
    });
  });
});
