import { expect } from 'chai';
import {
  AuthenticationFailedError,
  ForbiddenError,
  InvalidServiceDefinitionError,
  NoCredentialsError,
  ServiceNotAuthorizedError,
  TicketNotFoundError,
  ticketFingerprint,
  type DomainEvent,
  type ModuleEvent,
  type RegisteredService,
} from '@tessera/core';
import { RegisterService } from '@tessera/core/modules/services';
import { definition, password, service } from './fakes.js';
import { APP, coreWithFakes } from './harness.js';

const ORIGIN = { clientAddress: '203.0.113.7', requestId: 'req-9', endpoint: 'POST /cas/v1/tickets' };
const STAFF_ONLY = service({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] } } });
const NO_SSO = service({ id: 2, name: 'no sso', serviceId: '^https://nosso\\.example\\.org/.*', accessStrategy: { enabled: true, ssoEnabled: false, requiredAttributes: {} } });
const NOSSO_URL = 'https://nosso.example.org/';
const ELSEWHERE = 'https://elsewhere.example.com/';

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: unknown) => error,
  );
}

/** A core whose events start empty once casuser holds a TGT; `refused` runs an action and returns its one refusal event. */
async function loggedIn(services: readonly RegisteredService[] = [STAFF_ONLY, NO_SSO]) {
  const harness = coreWithFakes(services);
  const tgt = await harness.core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] });
  const refused = async (action: () => Promise<unknown>, expected: abstract new (...args: never[]) => Error): Promise<DomainEvent | ModuleEvent> => {
    const before = harness.events.events.length;
    expect(await refusal(action())).to.be.instanceOf(expected);
    const refusals = harness.events.events.slice(before).filter((event) => event.type.endsWith('.refused'));
    expect(refusals, 'one refusal event').to.have.length(1);
    expect(harness.events.origins.get(refusals[0]!), 'reported with the request origin').to.equal(ORIGIN);
    return refusals[0]!;
  };
  return { ...harness, tgt, refused };
}

// docs/architecture.md §6 — a refusal after a successful authentication (or once a TGT was presented) leaves a record
describe('refusals are reported as events (docs/architecture.md §6)', () => {
  describe('ticket.refused: POST /v1/tickets with a service', () => {
    it('an unregistered or disabled service: SERVICE_NOT_AUTHORIZED, naming who and the service (403)', async () => {
      const { core, refused } = await loggedIn();
      const create = () => core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')], service: ELSEWHERE, origin: ORIGIN });
      expect(await refused(create, ServiceNotAuthorizedError)).to.deep.equal({ type: 'ticket.refused', kind: 'TGT', reason: 'SERVICE_NOT_AUTHORIZED', service: ELSEWHERE, principal: 'casuser' });
    });

    it("a principal without the service's required attributes: PRINCIPAL_NOT_ALLOWED (401), after authentication.succeeded", async () => {
      const { core, events, refused } = await loggedIn();
      const before = events.events.length;
      const create = () => core.createTicketGrantingTicket.execute({ credentials: [password('alice', 'secret')], service: APP, origin: ORIGIN });
      expect(await refused(create, AuthenticationFailedError)).to.deep.equal({ type: 'ticket.refused', kind: 'TGT', reason: 'PRINCIPAL_NOT_ALLOWED', service: APP, principal: 'alice' });
      expect(events.events.slice(before).map((event) => event.type)).to.deep.equal(['authentication.succeeded', 'ticket.refused']);
    });

    it('bad credentials are an authentication.failed, never a refusal as well, with renew too', async () => {
      const { core, events, tgt } = await loggedIn();
      await refusal(core.createTicketGrantingTicket.execute({ credentials: [password('alice', 'nope')], service: APP }));
      await refusal(core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: true, credentials: [password('casuser', 'nope')] }));
      expect(events.ofType('authentication.failed')).to.have.length(2);
      expect(events.ofType('ticket.refused')).to.deep.equal([]);
    });
  });

  describe('ticket.refused: POST /v1/tickets/{tgt}', () => {
    it('an unknown TGT: TGT_NOT_FOUND with its fingerprint and nobody named (404)', async () => {
      const { core, refused } = await loggedIn();
      const unknown = 'TGT-77-kM3tQ9zF8wXyLp2VbN7cR4sD1aE6g-test';
      const grant = () => core.grantServiceTicket.execute({ tgtId: unknown, service: APP, renew: false, credentials: [], origin: ORIGIN });
      expect(await refused(grant, TicketNotFoundError)).to.deep.equal({ type: 'ticket.refused', kind: 'ST', reason: 'TGT_NOT_FOUND', service: APP, tgt: ticketFingerprint(unknown) });
    });

    it('an expired TGT: TGT_NOT_FOUND too', async () => {
      const { core, clock, tgt, refused } = await loggedIn();
      clock.advanceSeconds(2 * 3600);
      const grant = () => core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [], origin: ORIGIN });
      expect(await refused(grant, TicketNotFoundError)).to.include({ reason: 'TGT_NOT_FOUND', tgt: ticketFingerprint(tgt.id) });
    });

    it("the service or its access rules refuse the TGT's principal: SERVICE_NOT_AUTHORIZED (403), PRINCIPAL_NOT_ALLOWED (401)", async () => {
      const casuser = await loggedIn();
      const grant = (core: typeof casuser.core, tgtId: string, url: string) => () => core.grantServiceTicket.execute({ tgtId, service: url, renew: false, credentials: [], origin: ORIGIN });
      expect(await casuser.refused(grant(casuser.core, casuser.tgt.id, ELSEWHERE), ServiceNotAuthorizedError)).to.deep.equal({
        type: 'ticket.refused',
        kind: 'ST',
        reason: 'SERVICE_NOT_AUTHORIZED',
        service: ELSEWHERE,
        tgt: ticketFingerprint(casuser.tgt.id),
        principal: 'casuser',
      });
      const alice = await loggedIn([service()]);
      const alicesTgt = await alice.core.createTicketGrantingTicket.execute({ credentials: [password('alice', 'secret')] });
      await alice.registry.save(STAFF_ONLY);
      expect(await alice.refused(grant(alice.core, alicesTgt.id, APP), AuthenticationFailedError)).to.include({ reason: 'PRINCIPAL_NOT_ALLOWED', principal: 'alice', service: APP });
    });

    it('a service without SSO and no renew: SSO_NOT_ALLOWED (401)', async () => {
      const { core, tgt, refused } = await loggedIn();
      const grant = () => core.grantServiceTicket.execute({ tgtId: tgt.id, service: NOSSO_URL, renew: false, credentials: [], origin: ORIGIN });
      expect(await refused(grant, AuthenticationFailedError)).to.include({ kind: 'ST', reason: 'SSO_NOT_ALLOWED', principal: 'casuser', service: NOSSO_URL });
    });

    it("renew without credentials (400), or with another principal's (401): RENEW_WITHOUT_CREDENTIALS, RENEW_PRINCIPAL_MISMATCH", async () => {
      const { core, tgt, refused } = await loggedIn();
      const renew = (credentials: ReturnType<typeof password>[]) => () => core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: true, credentials, origin: ORIGIN });
      expect(await refused(renew([]), NoCredentialsError)).to.include({ reason: 'RENEW_WITHOUT_CREDENTIALS', principal: 'casuser' });
      expect(await refused(renew([password('alice', 'secret')]), AuthenticationFailedError)).to.include({ reason: 'RENEW_PRINCIPAL_MISMATCH', principal: 'casuser' });
    });

    it('a missing service is refused before any ticket is looked at: nothing to report', async () => {
      const { core, tgt, events } = await loggedIn();
      await refusal(core.grantServiceTicket.execute({ tgtId: tgt.id, service: ' ', renew: false, credentials: [] }));
      expect(events.ofType('ticket.refused')).to.deep.equal([]);
    });
  });

  describe('authentication.refused: POST /v1/users with a service', () => {
    it('good credentials, but the service is unknown (403) or refuses the principal (401)', async () => {
      const { core, refused } = await loggedIn();
      const check = (username: string, secret: string, url: string) => () => core.authenticateUser.execute({ credentials: [password(username, secret)], service: url, origin: ORIGIN });
      expect(await refused(check('casuser', 'Mellon', ELSEWHERE), ServiceNotAuthorizedError)).to.deep.equal({ type: 'authentication.refused', principal: 'casuser', service: ELSEWHERE, reason: 'SERVICE_NOT_AUTHORIZED' });
      expect(await refused(check('alice', 'secret', APP), AuthenticationFailedError)).to.deep.equal({ type: 'authentication.refused', principal: 'alice', service: APP, reason: 'PRINCIPAL_NOT_ALLOWED' });
    });
  });

  describe('service.refused: POST /v1/services and /v1/services/add/{tgt}', () => {
    const POLICY = { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } };
    const NEW = () => definition({ name: 'New', serviceId: '^https://new\\.example\\.org/.*' });
    const FORM = () => definition({ type: 'org.apereo.cas.services.RegexRegisteredService', name: 'n', serviceId: 'x', description: 'd' });
    /** What an adapter's codec throws for a definition whose `field` is wrong. */
    const invalidAt = (field: string) => () => {
      throw new InvalidServiceDefinitionError(field, 'is not valid');
    };
    async function registration() {
      const session = await loggedIn();
      const register = new RegisterService({ ...session, authenticator: session.core.authenticator, random: { bytes: (size) => new Uint8Array(size).fill(1) } }, POLICY);
      return { ...session, register };
    }

    it('a principal without the required attribute: MISSING_REQUIRED_ATTRIBUTE (403), in both variants', async () => {
      const { core, register, refused } = await registration();
      expect(await refused(() => register.withCredentials([password('alice', 'secret')], NEW, ORIGIN), ForbiddenError)).to.deep.equal({ type: 'service.refused', reason: 'MISSING_REQUIRED_ATTRIBUTE', principal: 'alice' });
      const alicesTgt = (await core.createTicketGrantingTicket.execute({ credentials: [password('alice', 'secret')] })).id;
      expect(await refused(() => register.withTicket(alicesTgt, FORM, ORIGIN), ForbiddenError)).to.deep.equal({
        type: 'service.refused',
        reason: 'MISSING_REQUIRED_ATTRIBUTE',
        principal: 'alice',
        tgt: ticketFingerprint(alicesTgt),
      });
    });

    it('an invalid definition: INVALID_SERVICE_DEFINITION naming the field (400), in both variants; nothing saved', async () => {
      const { register, registry, tgt, refused } = await registration();
      const json = () => register.withCredentials([password('casuser', 'Mellon')], invalidAt('serviceId'), ORIGIN);
      expect(await refused(json, InvalidServiceDefinitionError)).to.deep.equal({ type: 'service.refused', reason: 'INVALID_SERVICE_DEFINITION', principal: 'casuser', field: 'serviceId' });
      const form = () => register.withTicket(tgt.id, invalidAt('enabled'), ORIGIN);
      expect(await refused(form, InvalidServiceDefinitionError)).to.include({ reason: 'INVALID_SERVICE_DEFINITION', principal: 'casuser', field: 'enabled' });
      expect(await registry.list()).to.have.length(2);
    });

    it('an unknown TGT: TGT_NOT_FOUND with its fingerprint (404); bad Basic credentials stay an authentication.failed', async () => {
      const { register, events, refused } = await registration();
      const unknown = 'TGT-5-kM3tQ9zF8wXyLp2VbN7cR4sD1aE6g-test';
      expect(await refused(() => register.withTicket(unknown, FORM, ORIGIN), TicketNotFoundError)).to.deep.equal({
        type: 'service.refused',
        reason: 'TGT_NOT_FOUND',
        tgt: ticketFingerprint(unknown),
      });
      await refusal(register.withCredentials([password('casuser', 'nope')], NEW, ORIGIN));
      expect(events.ofType('service.refused')).to.have.length(1);
    });
  });

  it('no event of a refused request carries a password or a whole ticket id', async () => {
    const { core, tgt, events } = await loggedIn();
    const attempts = [
      core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')], service: ELSEWHERE }),
      core.grantServiceTicket.execute({ tgtId: tgt.id, service: NOSSO_URL, renew: false, credentials: [] }),
      core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: true, credentials: [password('alice', 'secret')] }),
      core.grantServiceTicket.execute({ tgtId: `${tgt.id}x`, service: APP, renew: false, credentials: [] }),
      core.authenticateUser.execute({ credentials: [password('alice', 'secret')], service: APP }),
    ];
    for (const attempt of attempts) await refusal(attempt);
    const refusals = events.events.filter((event) => event.type.endsWith('.refused'));
    expect(refusals).to.have.length(attempts.length);
    const text = JSON.stringify(events.events);
    const randomPart = tgt.id.replace(/^TGT-\d+-/, '').replace(/-test$/, '');
    for (const secret of ['Mellon', 'secret', tgt.id, randomPart]) expect(text).to.not.include(secret);
  });
});
