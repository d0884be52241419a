import { expect } from 'chai';
import {
  AuthenticationFailedError,
  cryptoRandomSource,
  defaultTicketLifetimes,
  withSecondFactor,
  type Admission,
  type Authentication,
  type MultifactorPolicy,
  type SecondFactorProvider,
} from '@tessera/core';
import { testCore } from '@tessera/testkit';
import { FixedClock, ListServiceRegistry, MapTicketStore, RecordingEvents, TableHandler, password, service } from './fakes.js';

/** A provider of a test module: users in `users` have it, a login proved it when a credential of `type` is among its credential types. */
function provider(id: string, description: string, type: string, users: readonly string[]): SecondFactorProvider {
  return {
    id,
    description,
    available: (username) => Promise.resolve(users.includes(username)),
    proved: (authentication) => (authentication.attributes['credentialType'] ?? []).includes(type),
  };
}

const CODES = provider('mfa-codes', 'a one-time code', 'code', ['casuser', 'bob']);
const KEYS = provider('mfa-keys', 'a security key', 'key', ['casuser', 'carol']);

const policy = (providers: readonly string[], more: Partial<MultifactorPolicy> = {}): MultifactorPolicy => ({ providers, failureMode: 'UNDEFINED', bypassEnabled: false, ...more });

function setUp(providers: readonly SecondFactorProvider[] = [CODES, KEYS]) {
  const clock = new FixedClock();
  const users = Object.fromEntries(['casuser', 'bob', 'carol', 'dave'].map((name) => [name, { password: 'pw' }]));
  const core = testCore({
    tickets: new MapTicketStore(clock),
    registry: new ListServiceRegistry([]),
    handlers: [new TableHandler('table', users)],
    clock,
    random: cryptoRandomSource,
    nodeName: 'test',
    lifetimes: defaultTicketLifetimes,
    events: new RecordingEvents(),
    secondFactors: providers,
  });
  return { core, logIn: (username: string) => core.authenticator.authenticate([password(username, 'pw')]) };
}

/** What a refusal tells the caller. */
function reasonsOf(admission: Admission): readonly string[] {
  if (admission.admitted || !(admission.error instanceof AuthenticationFailedError)) return expect.fail('expected a refusal of the login');
  return admission.error.reasons;
}

/** The login with a factor of this credential type added, as a provider's prompt adds it. */
function proving(authentication: Authentication, type: string): Authentication {
  return withSecondFactor(authentication, { ...authentication, credentials: [{ id: authentication.principal.id, type }], successes: {}, attributes: { credentialType: [type], successfulAuthenticationHandlers: [] } });
}

// docs/services.md (Multifactor policy): providers by id, any one of those a policy names meets it.
describe('SecondFactorRequirement: second-factor providers by id', () => {
  it('a policy naming several is met by any one of them; the choices are those the user has, in the policy’s order', async () => {
    const { core, logIn } = setUp();
    const both = service({ multifactorPolicy: policy(['mfa-keys', 'mfa-codes']) });
    const casuser = await logIn('casuser');
    expect(core.secondFactor.lacks(both, casuser)).to.equal(true);
    expect((await core.secondFactor.choices(both, casuser)).map((each) => each.id)).to.deep.equal(['mfa-keys', 'mfa-codes']);
    expect((await core.secondFactor.choices(both, await logIn('bob'))).map((each) => each.id), 'bob has codes only').to.deep.equal(['mfa-codes']);
    expect(await core.secondFactor.choices(both, await logIn('dave')), 'dave has neither').to.deep.equal([]);
    const withCode = proving(casuser, 'code');
    expect(core.secondFactor.lacks(both, withCode)).to.equal(false);
    expect(await core.secondFactor.choices(both, withCode), 'nothing lacks').to.deep.equal([]);
    expect(core.secondFactor.lacks(service({ multifactorPolicy: policy(['mfa-keys']) }), withCode), 'a factor the policy does not name meets nothing').to.equal(true);
  });

  it('authnContextClass names every provider the login proved, by id; nothing without one', async () => {
    const { core, logIn } = setUp();
    const casuser = await logIn('casuser');
    expect(core.secondFactor.contextClass(casuser)).to.deep.equal({});
    expect(core.secondFactor.contextClass(proving(casuser, 'key'))).to.deep.equal({ authnContextClass: ['mfa-keys'] });
    expect(core.secondFactor.contextClass(proving(proving(casuser, 'key'), 'code'))).to.deep.equal({ authnContextClass: ['mfa-codes', 'mfa-keys'] });
  });

  it('admission refuses a login lacking the factor, naming what the user may give; lets it through once proved', async () => {
    const { core, logIn } = setUp();
    const both = service({ multifactorPolicy: policy(['mfa-codes', 'mfa-keys']) });
    const refused = await core.relyingParties.admit({ service: both, authentication: await logIn('casuser'), renewed: true });
    expect(refused).to.deep.include({ admitted: false, reason: 'SECOND_FACTOR_REQUIRED' });
    expect(reasonsOf(refused)).to.deep.equal(['The service asks for a second factor (a one-time code or a security key) that this login did not give.']);
    const bob = await core.relyingParties.admit({ service: both, authentication: await logIn('bob'), renewed: true });
    expect(reasonsOf(bob), 'only what bob has').to.deep.equal(['The service asks for a second factor (a one-time code) that this login did not give.']);
    expect(await core.relyingParties.admit({ service: both, authentication: proving(await logIn('carol'), 'key'), renewed: true })).to.deep.equal({ admitted: true });
  });

  it('a user with none of them is refused (CLOSED) or let through (OPEN), as the failure mode says', async () => {
    const { core, logIn } = setUp();
    const dave = await logIn('dave');
    const closed = await core.relyingParties.admit({ service: service({ multifactorPolicy: policy(['mfa-codes', 'mfa-keys']) }), authentication: dave, renewed: true });
    expect(closed).to.deep.include({ admitted: false, reason: 'SECOND_FACTOR_UNAVAILABLE' });
    expect(reasonsOf(closed)).to.deep.equal(['The service asks for a second factor (a one-time code or a security key), and this user has none set up.']);
    const open = await core.relyingParties.admit({ service: service({ multifactorPolicy: policy(['mfa-codes'], { failureMode: 'OPEN' }) }), authentication: dave, renewed: true });
    expect(open).to.deep.equal({ admitted: true, factorSkipped: 'OPEN' });
  });

  it('a login may register a factor (self-registration) only where the policy names it, the user has no factor at all, and the failure mode would refuse', async () => {
    const { core, logIn } = setUp();
    const both = service({ multifactorPolicy: policy(['mfa-keys', 'mfa-codes']) });
    const dave = await logIn('dave');
    expect(await core.secondFactor.mayRegister('mfa-keys', both, dave)).to.equal(true);
    expect(await core.secondFactor.mayRegister('mfa-codes', both, dave)).to.equal(true);
    expect(await core.secondFactor.mayRegister('mfa-other', both, dave), 'a factor the policy does not name').to.equal(false);
    expect(await core.secondFactor.mayRegister('mfa-keys', both, await logIn('bob')), 'bob has codes, which the service accepts').to.equal(false);
    expect(await core.secondFactor.mayRegister('mfa-keys', both, proving(dave, 'code')), 'nothing lacks').to.equal(false);
    const keysOnly = service({ multifactorPolicy: policy(['mfa-keys']) });
    expect(await core.secondFactor.mayRegister('mfa-keys', keysOnly, await logIn('bob')), 'bob has codes: a password alone adds no factor beside them').to.equal(false);
    expect(await core.secondFactor.mayRegister('mfa-keys', service({ multifactorPolicy: policy(['mfa-keys'], { failureMode: 'OPEN' }) }), dave), 'OPEN lets dave through').to.equal(false);
    expect(await core.secondFactor.mayRegister('mfa-keys', service({ multifactorPolicy: policy(['mfa-keys'], { failureMode: 'CLOSED' }) }), dave)).to.equal(true);
    expect(await core.secondFactor.mayRegister('mfa-keys', service(), dave), 'no policy').to.equal(false);
    expect(await core.secondFactor.mayRegister('mfa-keys', undefined, dave), 'no service').to.equal(false);
  });

  it('a provider whose module is off is a factor nobody has: its failure mode decides', async () => {
    const { core, logIn } = setUp([CODES]);
    const keysOnly = service({ multifactorPolicy: policy(['mfa-keys']) });
    const casuser = await logIn('casuser');
    expect(core.secondFactor.lacks(keysOnly, casuser)).to.equal(true);
    expect(await core.secondFactor.choices(keysOnly, casuser)).to.deep.equal([]);
    const closed = await core.relyingParties.admit({ service: keysOnly, authentication: casuser, renewed: true });
    expect(closed).to.deep.include({ admitted: false, reason: 'SECOND_FACTOR_UNAVAILABLE' });
    expect(reasonsOf(closed)).to.deep.equal(['The service asks for a second factor, and this user has none set up.']);
    const none = await core.relyingParties.admit({ service: service({ multifactorPolicy: policy(['mfa-keys'], { failureMode: 'NONE' }) }), authentication: casuser, renewed: true });
    expect(none).to.deep.equal({ admitted: true, factorSkipped: 'NONE' });
  });

  it('bypass and triggers stay the policy’s, whatever the provider; an empty list asks nothing', async () => {
    const { core, logIn } = setUp();
    const casuser = await logIn('casuser');
    expect(core.secondFactor.lacks(service({ multifactorPolicy: policy(['mfa-keys'], { bypassEnabled: true }) }), casuser)).to.equal(false);
    expect(core.secondFactor.lacks(service({ multifactorPolicy: policy([]) }), casuser)).to.equal(false);
    expect(core.secondFactor.lacks(service({ multifactorPolicy: policy(['mfa-keys'], { principalAttributeNameTrigger: 'memberOf' }) }), casuser), 'casuser has no memberOf').to.equal(false);
  });

  it('two providers of one id are refused', () => {
    expect(() => setUp([CODES, provider('mfa-codes', 'another', 'other', [])])).to.throw('two second-factor providers have the id mfa-codes');
  });
});
