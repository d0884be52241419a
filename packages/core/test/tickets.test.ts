import { expect } from 'chai';
import {
  DENY_ALL_ATTRIBUTES,
  AuthenticationFailedError,
  InvalidRequestError,
  NoCredentialsError,
  ServiceNotAuthorizedError,
  TicketNotFoundError,
  TicketValidationError,
  type CasFailureCode,
} from '@tessera/core';
import { password, service } from './fakes.js';
import { APP, coreWithFakes } from './harness.js';
import { rejectionOf } from '@tessera/testkit';

async function expectValidationFailure(promise: Promise<unknown>, code: CasFailureCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(TicketValidationError);
  expect((error as TicketValidationError).casCode).to.equal(code);
}

describe('ticket use cases (docs/protocol.md §1, §3)', () => {
  async function login(harness = coreWithFakes()) {
    const tgt = await harness.core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] });
    return { ...harness, tgt };
  }

  it('every event a use case reports comes with the request origin it was given, for the audit trail', async () => {
    const { core, events } = coreWithFakes();
    const origin = (requestId: string) => ({ clientAddress: '203.0.113.7', requestId, endpoint: 'POST /cas/v1/tickets' });
    await rejectionOf(core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'nope')], origin: origin('r1') }));
    const tgt = await core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')], origin: origin('r2') });
    const { ticket } = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: true, credentials: [password('casuser', 'Mellon')], origin: origin('r3') });
    await core.validateServiceTicket.execute({ ticket: ticket.id, service: APP, renew: false, origin: origin('r4') });
    await expectValidationFailure(core.validateServiceTicket.execute({ ticket: ticket.id, service: APP, renew: false, origin: origin('r5') }), 'INVALID_TICKET');
    await core.authenticateUser.execute({ credentials: [password('casuser', 'Mellon')], origin: origin('r6') });
    await core.destroyTicketGrantingTicket.execute(tgt.id, origin('r7'));
    expect(events.events.map((event) => [event.type, events.origins.get(event)?.requestId])).to.deep.equal([
      ['authentication.failed', 'r1'],
      ['authentication.succeeded', 'r2'],
      ['ticket.created', 'r2'],
      ['authentication.succeeded', 'r3'],
      ['ticket.created', 'r3'],
      ['ticket.validated', 'r4'],
      ['ticket.validation.failed', 'r5'],
      ['authentication.succeeded', 'r6'],
      ['ticket.destroyed', 'r7'],
    ]);
  });

  describe('create TGT', () => {
    it('stores a TGT with the authentication, 8 h hard and 2 h idle limits', async () => {
      const { tgt, tickets, clock } = await login();
      expect(tickets.tickets.get(tgt.id)).to.deep.equal(tgt);
      expect(tgt.authentication.principal.id).to.equal('casuser');
      expect(tgt.hardExpiresAt - clock.now()).to.equal(8 * 3600_000);
      expect(tgt.expiresAt - clock.now()).to.equal(2 * 3600_000);
    });

    it('refuses no credentials (400) and bad ones (401) without storing anything', async () => {
      const { core, tickets } = coreWithFakes();
      expect(await rejectionOf(core.createTicketGrantingTicket.execute({ credentials: [] }))).to.be.instanceOf(NoCredentialsError);
      expect(await rejectionOf(core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'nope')] }))).to.be.instanceOf(
        AuthenticationFailedError,
      );
      expect(tickets.tickets.size).to.equal(0);
    });

    it('with a service: unregistered → 403, missing required attributes → 401', async () => {
      const strict = service({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] } } });
      const { core, tickets } = coreWithFakes([strict]);
      const create = (user: string, secret: string, url: string) =>
        core.createTicketGrantingTicket.execute({ credentials: [password(user, secret)], service: url });
      expect(await rejectionOf(create('casuser', 'Mellon', 'https://evil.example.com/'))).to.be.instanceOf(ServiceNotAuthorizedError);
      expect(await rejectionOf(create('alice', 'secret', APP))).to.be.instanceOf(AuthenticationFailedError);
      expect((await create('casuser', 'Mellon', APP)).id).to.match(/^TGT-/);
      expect(tickets.tickets.size).to.equal(1);
    });
  });

  describe('grant ST', () => {
    it('grants an ST bound to the service; within the REST window the first is from a new login, the next is not', async () => {
      const { core, tgt, clock } = await login();
      clock.advanceSeconds(29.999);
      const first = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [], firstTicketWithinSeconds: 30 });
      const second = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [], firstTicketWithinSeconds: 30 });
      expect(first.ticket.id).to.match(/^ST-\d+-[A-Za-z0-9-]+-test$/);
      expect(first.ticket).to.include({ tgtId: tgt.id, service: APP, fromNewLogin: true });
      expect(second.ticket.fromNewLogin).to.equal(false);
    });

    it("a TGT's first ST is not from a new login once the window after the login has passed, nor without a window (single sign-on)", async () => {
      const late = await login();
      late.clock.advanceSeconds(30);
      const afterWindow = await late.core.grantServiceTicket.execute({ tgtId: late.tgt.id, service: APP, renew: false, credentials: [], firstTicketWithinSeconds: 30 });
      expect(afterWindow.ticket.fromNewLogin).to.equal(false);
      const sso = await login();
      const withoutWindow = await sso.core.grantServiceTicket.execute({ tgtId: sso.tgt.id, service: APP, renew: false, credentials: [] });
      expect(withoutWindow.ticket.fromNewLogin).to.equal(false);
      const closed = await login();
      const windowZero = await closed.core.grantServiceTicket.execute({ tgtId: closed.tgt.id, service: APP, renew: false, credentials: [], firstTicketWithinSeconds: 0 });
      expect(windowZero.ticket.fromNewLogin).to.equal(false);
      // Credentials sent with the grant count whenever they come.
      late.clock.advanceSeconds(3600);
      const renewed = await late.core.grantServiceTicket.execute({ tgtId: late.tgt.id, service: APP, renew: true, credentials: [password('casuser', 'Mellon')], firstTicketWithinSeconds: 30 });
      expect(renewed.ticket.fromNewLogin).to.equal(true);
    });

    it('needs a service (400), a live TGT (404), a registered service (403)', async () => {
      const { core, tgt } = await login();
      const grant = (tgtId: string, url: string | undefined) => core.grantServiceTicket.execute({ tgtId, service: url, renew: false, credentials: [] });
      expect(await rejectionOf(grant(tgt.id, undefined))).to.be.instanceOf(InvalidRequestError);
      expect(await rejectionOf(grant(tgt.id, '  '))).to.be.instanceOf(InvalidRequestError);
      expect(await rejectionOf(grant('TGT-1-unknown-x', APP))).to.be.instanceOf(TicketNotFoundError);
      expect(await rejectionOf(grant(tgt.id, 'https://elsewhere.example.com/'))).to.be.instanceOf(ServiceNotAuthorizedError);
    });

    it('an ST id is not a TGT (404)', async () => {
      const { core, tgt } = await login();
      const { ticket } = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [] });
      const error = await rejectionOf(core.grantServiceTicket.execute({ tgtId: ticket.id, service: APP, renew: false, credentials: [] }));
      expect(error).to.be.instanceOf(TicketNotFoundError);
    });

    it('renew needs credentials (400) of the same principal (401) and marks a fresh login', async () => {
      const { core, tgt } = await login();
      await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [] });
      const renew = (credentials: ReturnType<typeof password>[]) =>
        core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: true, credentials });
      expect(await rejectionOf(renew([]))).to.be.instanceOf(NoCredentialsError);
      expect(await rejectionOf(renew([password('alice', 'secret')]))).to.be.instanceOf(AuthenticationFailedError);
      expect(await rejectionOf(renew([password('casuser', 'bad')]))).to.be.instanceOf(AuthenticationFailedError);
      const renewed = await renew([password('casuser', 'Mellon')]);
      expect(renewed.ticket.fromNewLogin).to.equal(true);
    });

    it('a service without SSO needs renew with credentials (401 otherwise)', async () => {
      const noSso = service({ accessStrategy: { enabled: true, ssoEnabled: false, requiredAttributes: {} } });
      const { core, tgt } = await login(coreWithFakes([noSso]));
      const error = await rejectionOf(core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [] }));
      expect(error).to.be.instanceOf(AuthenticationFailedError);
      const ok = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: true, credentials: [password('casuser', 'Mellon')] });
      expect(ok.ticket.fromNewLogin).to.equal(true);
    });

    it('granting slides the idle limit but never past the hard limit', async () => {
      const { core, tgt, clock, tickets } = await login();
      const grant = () => core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [] });
      for (let use = 0; use < 4; use++) {
        clock.advanceSeconds(119 * 60); // 1 h 59 min idle each time: alive because each grant slides the idle limit
        await grant();
      }
      clock.advanceSeconds(5 * 60); // 8 h 01 min after login, idle only 5 min: the hard limit ends it
      expect(await rejectionOf(grant())).to.be.instanceOf(TicketNotFoundError);
      expect(await tickets.get(tgt.id)).to.equal(undefined);
    });

    it('idle for more than 2 h kills the TGT; a status check does not extend it', async () => {
      const { core, tgt, clock } = await login();
      clock.advanceSeconds(7199);
      expect((await core.ticketStatus.execute(tgt.id)).id).to.equal(tgt.id);
      clock.advanceSeconds(1);
      expect(await rejectionOf(core.ticketStatus.execute(tgt.id))).to.be.instanceOf(TicketNotFoundError);
    });
  });

  describe('validate ST (CAS protocol §2.5, §3.1.1)', () => {
    async function issued(harness = coreWithFakes()) {
      const session = await login(harness);
      // As REST grants it: the TGT's first ST, at once after the login.
      const { ticket } = await session.core.grantServiceTicket.execute({ tgtId: session.tgt.id, service: APP, renew: false, credentials: [], firstTicketWithinSeconds: 30 });
      return { ...session, st: ticket };
    }

    it('validates once with the user and released attributes plus protocol attributes', async () => {
      const { core, st, tgt } = await issued();
      const result = await core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false });
      expect(result.user).to.equal('casuser');
      expect(result.attributes).to.deep.equal({
        memberOf: ['staff', 'faculty'],
        mail: ['casuser@example.org'],
        isFromNewLogin: ['true'],
        authenticationDate: [new Date(tgt.authentication.authenticatedAt).toISOString().replace('.000Z', 'Z')],
      });
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false }), 'INVALID_TICKET');
    });

    it('reports when and how the session authenticated (for SAML assertions)', async () => {
      const { core, st, tgt, clock } = await issued();
      clock.advanceSeconds(3);
      const result = await core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false });
      expect(result.authenticatedAt).to.equal(tgt.authentication.authenticatedAt);
      expect(result.credentialTypes).to.deep.equal(['usernamePassword']);
    });

    it('compares services decoded, without fragment, case-insensitively', async () => {
      const { core, st } = await issued();
      const result = await core.validateServiceTicket.execute({ ticket: st.id, service: 'HTTPS://APP.example.org/home#top', renew: false });
      expect(result.user).to.equal('casuser');
      const again = await issued();
      const encoded = await again.core.validateServiceTicket.execute({ ticket: again.st.id, service: 'https%3a%2f%2fapp.example.org%2fhome', renew: false });
      expect(encoded.user).to.equal('casuser');
    });

    it('a wrong service fails with INVALID_SERVICE and burns the ticket', async () => {
      const { core, st } = await issued();
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: 'https://app.example.org/other', renew: false }), 'INVALID_SERVICE');
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false }), 'INVALID_TICKET');
    });

    it('a failure names the principal once the ticket was found, and only then', async () => {
      const { core, st, events } = await issued();
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: 'https://app.example.org/other', renew: false }), 'INVALID_SERVICE');
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false }), 'INVALID_TICKET');
      expect(events.ofType('ticket.validation.failed').map(({ code, principal }) => [code, principal])).to.deep.equal([
        ['INVALID_SERVICE', 'casuser'],
        ['INVALID_TICKET', undefined],
      ]);
    });

    it('missing parameters → INVALID_REQUEST; unknown, expired or TGT ids → INVALID_TICKET', async () => {
      const { core, st, tgt, clock } = await issued();
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: undefined, service: APP, renew: false }), 'INVALID_REQUEST');
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: '', renew: false }), 'INVALID_REQUEST');
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: 'ST-1-nope', service: APP, renew: false }), 'INVALID_TICKET');
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: tgt.id, service: APP, renew: false }), 'INVALID_TICKET');
      clock.advanceSeconds(10);
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false }), 'INVALID_TICKET');
    });

    it('an ST validates at 9.999 s and not at 10 s', async () => {
      const a = await issued();
      a.clock.advanceSeconds(9.999);
      expect((await a.core.validateServiceTicket.execute({ ticket: a.st.id, service: APP, renew: false })).user).to.equal('casuser');
      const b = await issued();
      b.clock.advanceSeconds(10);
      await expectValidationFailure(b.core.validateServiceTicket.execute({ ticket: b.st.id, service: APP, renew: false }), 'INVALID_TICKET');
    });

    it('renew=true accepts only an ST from a new login', async () => {
      const { core, st, tgt } = await issued();
      expect((await core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: true })).user).to.equal('casuser');
      const { ticket: second } = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [] });
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: second.id, service: APP, renew: true }), 'INVALID_TICKET');
    });

    it('logout destroys the TGT and its STs; none validates afterwards', async () => {
      const { core, st, tgt, tickets, events } = await issued();
      await core.destroyTicketGrantingTicket.execute(tgt.id);
      expect(tickets.tickets.size).to.equal(0);
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false }), 'INVALID_TICKET');
      await core.destroyTicketGrantingTicket.execute(tgt.id); // idempotent
      expect(events.ofType('ticket.destroyed')).to.have.length(1);
      expect(events.ofType('ticket.destroyed')[0]).to.include({ descendants: 1, principal: 'casuser' });
    });

    it('an ST whose TGT is gone (expired or removed without cascade) never validates', async () => {
      const { core, st, tgt, tickets } = await issued();
      await tickets.remove(tgt.id);
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false }), 'INVALID_TICKET');
    });

    it('a service disabled after the grant gets UNAUTHORIZED_SERVICE', async () => {
      const { core, st, registry } = await issued();
      await registry.save(service({ accessStrategy: { enabled: false, ssoEnabled: true, requiredAttributes: {} } }));
      await expectValidationFailure(core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false }), 'UNAUTHORIZED_SERVICE');
    });

    it('a service releasing no attributes gets no protocol attributes either', async () => {
      const { core, st } = await issued(coreWithFakes([service({ attributeRelease: { type: DENY_ALL_ATTRIBUTES } })]));
      expect((await core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false })).attributes).to.deep.equal({});
    });

    it('reports events with fingerprints, never whole ticket ids', async () => {
      const { core, st, tgt, events } = await issued();
      await core.validateServiceTicket.execute({ ticket: st.id, service: APP, renew: false });
      const logged = JSON.stringify(events.events);
      expect(logged).to.not.include(st.id);
      expect(logged).to.not.include(tgt.id);
      expect(events.ofType('ticket.validated')).to.have.length(1);
    });
  });
});
