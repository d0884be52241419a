import { expect } from 'chai';
import {
  ANONYMOUS_USERNAME_PROVIDER,
  cryptoRandomSource,
  defaultTicketLifetimes,
  persistentId,
  ServiceNotAuthorizedError,
  TicketValidationError,
  type AdmissionRule,
  type RegisteredService,
  type RelyingPartyResolver,
} from '@tessera/core';
import { testCore } from '@tessera/testkit';
import { FixedClock, ListServiceRegistry, MapTicketStore, RecordingEvents, TableHandler, password, service } from './fakes.js';

const CALLBACK = 'https://sso.example.org/cas/module/interaction/abc/login';
const GONE = 'https://sso.example.org/cas/module/interaction/gone/login';
/** The name the client's policies know it by (an SP's entity id), which the module's per-login URL stands for. */
const CLIENT_NAME = 'https://client.example.org/entity';

/** A protocol module's own URLs: the callback stands for its client, whatever URL its serviceId names. */
function moduleResolver(client: RegisteredService): RelyingPartyResolver {
  return {
    resolve: (url) => {
      if (url === CALLBACK) return Promise.resolve({ service: client, shownUrl: 'https://client.example.org/cb', policyUrl: CLIENT_NAME, refusalUrl: 'https://sso.example.org/cas/module/refused' });
      if (url === GONE) return Promise.resolve(null);
      return Promise.resolve(undefined);
    },
  };
}

function setUp(client: RegisteredService, admissionRules: readonly AdmissionRule[] = []) {
  const clock = new FixedClock();
  const tickets = new MapTicketStore(clock);
  const registry = new ListServiceRegistry([service(), client]);
  const events = new RecordingEvents();
  const handler = new TableHandler('table', {
    casuser: { password: 'Mellon', attributes: { memberOf: ['staff'], mail: ['casuser@example.org'] } },
    alice: { password: 'secret', attributes: { memberOf: ['students'] } },
  });
  const core = testCore({ tickets, registry, handlers: [handler], clock, random: cryptoRandomSource, nodeName: 'test', lifetimes: defaultTicketLifetimes, events, relyingPartyResolvers: [moduleResolver(client)], admissionRules });
  return { core, clock, events };
}

const client = (overrides: Partial<RegisteredService> = {}) =>
  service({ id: 7, name: 'Module client', serviceId: '^https://client\\.example\\.org/cb$', accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] } }, ...overrides });

// docs/architecture.md §5: the one relying-party path, whatever the protocol.
describe('RelyingPartyAccess: one path for every protocol', () => {
  it("a module's own URL stands for its client's definition: located, required and shown as that client", async () => {
    const { core } = setUp(client());
    const party = await core.relyingParties.locate(CALLBACK);
    expect(party).to.deep.include({ url: CALLBACK, shownUrl: 'https://client.example.org/cb', throughModule: true });
    expect(await core.relyingParties.policyUrl(CALLBACK)).to.equal(CLIENT_NAME);
    expect(party?.service.name).to.equal('Module client');
    expect(await core.relyingParties.locate('https://app.example.org/x')).to.deep.include({ throughModule: false });
    expect(await core.relyingParties.policyUrl('https://app.example.org/x')).to.equal('https://app.example.org/x');
    expect(await core.relyingParties.locate(GONE), 'its own URL, standing for nothing now').to.equal(undefined);
  });

  it("a refused module URL carries the protocol's refusal, unless the definition names an unauthorizedRedirectUrl", async () => {
    const refuse = (_reason: string, error: Error): never => {
      throw error;
    };
    const disabled = setUp(client({ accessStrategy: { enabled: false, ssoEnabled: true, requiredAttributes: {} } }));
    const error = await disabled.core.relyingParties.require(CALLBACK, refuse).catch((thrown: unknown) => thrown);
    expect(error).to.be.instanceOf(ServiceNotAuthorizedError);
    expect((error as ServiceNotAuthorizedError).unauthorizedRedirectUrl).to.equal('https://sso.example.org/cas/module/refused');
    const redirected = setUp(client({ accessStrategy: { enabled: false, ssoEnabled: true, requiredAttributes: {}, unauthorizedRedirectUrl: 'https://help.example.org/' } }));
    expect(((await redirected.core.relyingParties.require(CALLBACK, refuse).catch((thrown: unknown) => thrown)) as ServiceNotAuthorizedError).unauthorizedRedirectUrl).to.equal('https://help.example.org/');
  });

  it("admission: the client's access rules, its single sign-on and its second factor, answered for any protocol", async () => {
    const { core } = setUp(client({ accessStrategy: { enabled: true, ssoEnabled: false, requiredAttributes: { memberOf: ['staff'] } } }));
    const staff = await core.authenticator.authenticate([password('casuser', 'Mellon')]);
    const student = await core.authenticator.authenticate([password('alice', 'secret')]);
    const clientService = (await core.relyingParties.find(CALLBACK))!;
    expect(await core.relyingParties.admit({ service: clientService, authentication: staff, renewed: true })).to.deep.equal({ admitted: true });
    expect(await core.relyingParties.admit({ service: clientService, authentication: staff, renewed: false })).to.deep.include({ admitted: false, reason: 'SSO_NOT_ALLOWED' });
    expect(await core.relyingParties.admit({ service: clientService, authentication: student, renewed: true })).to.deep.include({ admitted: false, reason: 'PRINCIPAL_NOT_ALLOWED' });
  });

  it("still admitting: a client's tokens follow its definition as it is now (access rules, time window, enabled), never the rules of the browser's request", async () => {
    const { core, clock } = setUp(client());
    const staff = await core.authenticator.authenticate([password('casuser', 'Mellon')]);
    const student = await core.authenticator.authenticate([password('alice', 'secret')]);
    const intranet = client({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {}, request: { ipAddress: '^10\\.' } } });
    const windowed = client({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {}, window: { endingDateTime: new Date(clock.now() + 60_000).toISOString() } } });
    const { relyingParties } = core;
    expect(relyingParties.stillAdmits(client(), staff)).to.equal(true);
    expect(relyingParties.stillAdmits(client(), student)).to.equal(false);
    expect(relyingParties.stillAdmits(client(), undefined), "a client's own token asks the service alone").to.equal(true);
    expect(relyingParties.stillAdmits(client({ accessStrategy: { enabled: false, ssoEnabled: true, requiredAttributes: {} } }))).to.equal(false);
    expect(relyingParties.stillAdmits(intranet, student), 'the HTTP request rules were the login\'s').to.equal(true);
    expect(relyingParties.stillAdmits(windowed, student)).to.equal(true);
    clock.advance(120_000);
    expect(relyingParties.stillAdmits(windowed, student)).to.equal(false);
  });

  it("still admitting asks the modules' admission rules of the session's login: a rule that now refuses how it was proved refuses its tokens", async () => {
    // A rule as the delegation module's: this client takes no login of alice's kind any more.
    const onlyStaffLogins: AdmissionRule = { allows: (service, authentication) => service.id !== 7 || authentication.principal.attributes['memberOf']?.includes('staff') === true };
    const { core } = setUp(client({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {} } }), [onlyStaffLogins]);
    const staff = await core.authenticator.authenticate([password('casuser', 'Mellon')]);
    const student = await core.authenticator.authenticate([password('alice', 'secret')]);
    const open = client({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {} } });
    expect(core.relyingParties.stillAdmits(open, staff)).to.equal(true);
    expect(core.relyingParties.stillAdmits(open, student)).to.equal(false);
    expect(core.relyingParties.stillAdmits(open), "a client's own token asks the service alone").to.equal(true);
  });

  it('release: who the user is to the service and what it receives, with the authentication attributes only for a validation', async () => {
    const { core } = setUp(client({ usernameProvider: { type: 'org.apereo.cas.services.PrincipalAttributeRegisteredServiceUsernameProvider', usernameAttribute: 'mail', canonicalizationMode: 'NONE' } as RegisteredService['attributeRelease'] }));
    const authentication = await core.authenticator.authenticate([password('casuser', 'Mellon')]);
    const clientService = (await core.relyingParties.find(CALLBACK))!;
    const released = await core.relyingParties.release({ service: clientService, url: CALLBACK, principal: authentication.principal });
    expect(released).to.deep.equal({ username: 'casuser@example.org', attributes: { memberOf: ['staff'], mail: ['casuser@example.org'] } });
    const validated = await core.relyingParties.release({ service: clientService, url: CALLBACK, principal: authentication.principal, validation: { fromNewLogin: true, authenticatedAt: Date.UTC(2030, 0, 1), authentication } });
    expect(validated.attributes).to.include.keys('isFromNewLogin', 'authenticationDate');
  });

  it("releasedClaims: a grant's claims are what release gives the service for that grant", async () => {
    const { core } = setUp(client({ usernameProvider: { type: 'org.apereo.cas.services.PrincipalAttributeRegisteredServiceUsernameProvider', usernameAttribute: 'mail', canonicalizationMode: 'NONE' } as RegisteredService['attributeRelease'] }));
    const authentication = await core.authenticator.authenticate([password('casuser', 'Mellon')]);
    const clientService = (await core.relyingParties.find(CALLBACK))!;
    const request = { service: clientService, url: CALLBACK, principal: authentication.principal, grant: { scopes: ['openid'], claimsMap: {} } };
    const claims = await core.relyingParties.releasedClaims(request);
    expect(claims).to.deep.equal({ memberOf: ['staff'], mail: ['casuser@example.org'] });
    expect(claims).to.deep.equal((await core.relyingParties.release(request)).attributes);
    const gone = await core.relyingParties.releasedClaims({ ...request, url: GONE }).catch((thrown: unknown) => thrown);
    expect(gone, 'a module URL standing for nothing now, as release refuses it').to.be.instanceOf(ServiceNotAuthorizedError);
  });

  it('releasedClaims: one answer serves the same principal, service and scopes again; another scope set, a changed definition, a new login or a module URL is worked out anew', async () => {
    const { core } = setUp(client());
    const { principal } = await core.authenticator.authenticate([password('casuser', 'Mellon')]);
    const clientService = (await core.relyingParties.find(CALLBACK))!;
    const url = clientService.serviceId;
    const grant = { scopes: ['openid'], claimsMap: {} };
    const first = await core.relyingParties.releasedClaims({ service: clientService, url, principal, grant });
    expect(await core.relyingParties.releasedClaims({ service: clientService, url, principal, grant: { ...grant } })).to.equal(first);
    const mapped = await core.relyingParties.releasedClaims({ service: clientService, url, principal, grant: { scopes: ['openid'], claimsMap: { email: 'mail' } } });
    expect(mapped, 'another claim map').to.not.equal(first);
    const changed = { ...clientService, attributeRelease: { type: 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['mail'] } } as RegisteredService;
    expect(await core.relyingParties.releasedClaims({ service: changed, url, principal, grant })).to.deep.equal({ mail: ['casuser@example.org'] });
    const again = await core.authenticator.authenticate([password('casuser', 'Mellon')]);
    const anew = await core.relyingParties.releasedClaims({ service: clientService, url, principal: again.principal, grant });
    expect(anew).to.deep.equal(first);
    expect(anew, 'a new login').to.not.equal(first);
    const throughModule = await core.relyingParties.releasedClaims({ service: clientService, url: CALLBACK, principal, grant });
    expect(await core.relyingParties.releasedClaims({ service: clientService, url: CALLBACK, principal, grant }), 'a module URL, which may stand for nothing later').to.not.equal(throughModule);
    const gone = await core.relyingParties.releasedClaims({ service: clientService, url: GONE, principal, grant }).catch((thrown: unknown) => thrown);
    expect(gone, 'a module URL standing for nothing now is refused').to.be.instanceOf(ServiceNotAuthorizedError);
  });

  it("a module's own URL is released for as the name the client's policies know it by, the same as a release asked by that name; a CAS service's over its URL", async () => {
    const anonymous = { type: ANONYMOUS_USERNAME_PROVIDER, salt: 'pepper' };
    const { core } = setUp(client({ usernameProvider: anonymous }));
    const { principal } = await core.authenticator.authenticate([password('casuser', 'Mellon')]);
    const clientService = (await core.relyingParties.find(CALLBACK))!;
    const throughCallback = await core.relyingParties.release({ service: clientService, url: CALLBACK, principal });
    expect(throughCallback.username).to.equal(persistentId('casuser', CLIENT_NAME, 'pepper'));
    expect(throughCallback).to.deep.equal(await core.relyingParties.release({ service: clientService, url: CLIENT_NAME, principal }));
    const casService = service({ usernameProvider: anonymous });
    expect((await core.relyingParties.release({ service: casService, url: 'https://app.example.org/x', principal })).username).to.equal(persistentId('casuser', 'https://app.example.org/x', 'pepper'));
    const gone = await core.relyingParties.release({ service: clientService, url: GONE, principal }).catch((thrown: unknown) => thrown);
    expect(gone, 'its own URL, standing for nothing now: no release computed over the wrong name').to.be.instanceOf(ServiceNotAuthorizedError);
  });

  it("a ticket of a module's URL is handed over to that module only; a CAS service's ticket never is", async () => {
    const { core } = setUp(client());
    const tgt = await core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] });
    const forModule = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: CALLBACK, renew: false, credentials: [] });
    const viaCas = await core.validateServiceTicket.execute({ ticket: forModule.ticket.id, service: CALLBACK, renew: false }).catch((thrown: unknown) => thrown);
    expect(viaCas, 'no CAS validation answers for a module client').to.be.instanceOf(TicketValidationError).and.have.property('casCode', 'UNAUTHORIZED_SERVICE');
    const again = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: CALLBACK, renew: false, credentials: [] });
    const handed = await core.validateServiceTicket.handOver({ ticket: again.ticket.id, service: CALLBACK, renew: false });
    expect(handed.service.name).to.equal('Module client');
    expect(handed.tgt.id).to.equal(tgt.id);
    const forCas = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: 'https://app.example.org/x', renew: false, credentials: [] });
    const handedCas = await core.validateServiceTicket.handOver({ ticket: forCas.ticket.id, service: 'https://app.example.org/x', renew: false }).catch((thrown: unknown) => thrown);
    expect(handedCas).to.be.instanceOf(TicketValidationError).and.have.property('casCode', 'UNAUTHORIZED_SERVICE');
  });

  it("a module client refusing the user grants no ticket for the module's URL", async () => {
    const { core } = setUp(client());
    const tgt = await core.createTicketGrantingTicket.execute({ credentials: [password('alice', 'secret')] });
    const refused = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: CALLBACK, renew: false, credentials: [] }).catch((thrown: unknown) => thrown);
    expect(refused).to.have.property('code', 'AUTHENTICATION_FAILED');
  });
});
