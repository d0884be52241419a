import { expect } from 'chai';
import {
  ForbiddenError,
  InvalidConfigurationError,
  InvalidServiceDefinitionError,
  LEGACY_DEFAULT_EVALUATION_ORDER,
  RegisterService,
  TicketNotFoundError,
  UnauthenticatedError,
  type RandomSource,
} from '@tessera/core';
import { coreWithFakes } from './harness.js';
import { password } from './fakes.js';

const POLICY = {
  requiredAttribute: { name: 'memberOf', valuePattern: 'STAFF|admins' },
  acceptedTypes: ['org.apereo.cas.services.CasRegisteredService'],
};
const NEW = { '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'New', serviceId: '^https://new\\.example\\.org/.*' };

const ONES: RandomSource = { bytes: (size) => new Uint8Array(size).fill(1) };

function setup(random = ONES, policy = POLICY) {
  const fakes = coreWithFakes();
  const register = new RegisterService({ ...fakes, authenticator: fakes.core.authenticator, random }, policy);
  return { ...fakes, register };
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: unknown) => error,
  );
}

// docs/protocol.md §3 — POST /v1/services and /v1/services/add/{tgt}, in core with fakes
describe('RegisterService (docs/protocol.md §3)', () => {
  it('saves a definition from an authorized principal, assigns a random unused id and reports service.saved', async () => {
    const { register, registry, events, core } = setup();
    const origin = { clientAddress: '203.0.113.7', requestId: 'r1' };
    const saved = await register.withCredentials([password('casuser', 'Mellon')], NEW, origin);
    expect(events.events.map((event) => [event.type, events.origins.get(event)])).to.deep.equal([
      ['authentication.succeeded', origin],
      ['service.saved', origin],
    ]);
    expect(saved.id).to.equal(0x010101010101 + 1);
    expect(await registry.findById(saved.id)).to.deep.equal(saved);
    expect(events.ofType('service.saved')).to.deep.equal([{ type: 'service.saved', serviceId: saved.id, name: 'New', replaced: false, principal: 'casuser' }]);
    expect((await core.serviceAccess.find('https://new.example.org/x'))?.id).to.equal(saved.id);
  });

  it('draws again when the random id is taken', async () => {
    const draws = [new Uint8Array([0, 0, 0, 0, 0, 0]), new Uint8Array([0, 0, 0, 0, 0, 6])];
    const { register } = setup({ bytes: () => draws.shift() ?? expect.fail('no more draws') });
    expect((await register.withCredentials([password('casuser', 'Mellon')], NEW)).id).to.equal(7);
  });

  it('a definition with a stored id replaces it', async () => {
    const { register, registry } = setup();
    await register.withCredentials([password('casuser', 'Mellon')], { ...NEW, id: 1 });
    expect((await registry.list()).map((s) => [s.id, s.name])).to.deep.equal([[1, 'New']]);
  });

  it('no or bad credentials: UnauthenticatedError, whatever the REST revision', async () => {
    const { register } = setup();
    expect(await refusal(register.withCredentials([], NEW))).to.be.instanceOf(UnauthenticatedError);
    expect(await refusal(register.withCredentials([password('casuser', 'nope')], NEW))).to.be.instanceOf(UnauthenticatedError);
  });

  it('a principal without a matching value (case-insensitive, whole value) is forbidden', async () => {
    const { register, registry } = setup();
    expect(await refusal(register.withCredentials([password('alice', 'secret')], NEW))).to.be.instanceOf(ForbiddenError);
    const partial = setup(ONES, { ...POLICY, requiredAttribute: { name: 'memberOf', valuePattern: 'sta' } });
    expect(await refusal(partial.register.withCredentials([password('casuser', 'Mellon')], NEW))).to.be.instanceOf(ForbiddenError);
    expect(await registry.list()).to.have.length(1);
  });

  it('a definition of a type not accepted is refused naming @class', async () => {
    const { register } = setup();
    const error = await refusal(register.withCredentials([password('casuser', 'Mellon')], { ...NEW, '@class': 'org.apereo.cas.services.RegexRegisteredService' }));
    expect(error).to.be.instanceOf(InvalidServiceDefinitionError).with.property('field', '@class');
  });

  it('an invalid value pattern is a configuration error naming the setting', () => {
    const { core, tickets, registry, events } = coreWithFakes();
    const deps = { authenticator: core.authenticator, tickets, registry, events, random: { bytes: (n: number) => new Uint8Array(n) } };
    expect(() => new RegisterService(deps, { ...POLICY, requiredAttribute: { name: 'memberOf', valuePattern: '(' } }))
      .to.throw(InvalidConfigurationError)
      .with.property('setting', 'registration.requiredAttribute.valuePattern');
  });

  describe('earlier revision: form fields and a TGT', () => {
    async function tgtOf(fakes: ReturnType<typeof setup>, username: string, secret: string): Promise<string> {
      return (await fakes.core.createTicketGrantingTicket.execute({ credentials: [password(username, secret)] })).id;
    }

    it('builds a RegexRegisteredService; enabled and SSO by default, evaluated last; service.saved names the principal', async () => {
      const fakes = setup();
      const saved = await fakes.register.withTicket(await tgtOf(fakes, 'casuser', 'Mellon'), { serviceId: '^https://old\\.example\\.org/.*', name: 'Old', description: 'legacy' });
      expect(fakes.events.ofType('service.saved')).to.deep.equal([{ type: 'service.saved', serviceId: saved.id, name: 'Old', replaced: false, principal: 'casuser' }]);
      expect(saved).to.include({ type: 'org.apereo.cas.services.RegexRegisteredService', name: 'Old', description: 'legacy', evaluationOrder: LEGACY_DEFAULT_EVALUATION_ORDER });
      expect(saved.accessStrategy).to.deep.equal({ enabled: true, ssoEnabled: true, requiredAttributes: {} });
    });

    it('reads evaluationOrder and the flags', async () => {
      const fakes = setup();
      const saved = await fakes.register.withTicket(await tgtOf(fakes, 'casuser', 'Mellon'), {
        serviceId: 'x', name: 'n', description: 'd', evaluationOrder: '7', enabled: 'false', ssoEnabled: 'FALSE',
      });
      expect(saved.evaluationOrder).to.equal(7);
      expect(saved.accessStrategy).to.include({ enabled: false, ssoEnabled: false });
    });

    it('unknown TGT, unauthorized principal, missing or invalid fields', async () => {
      const fakes = setup();
      const form = { serviceId: 'x', name: 'n', description: 'd' };
      expect(await refusal(fakes.register.withTicket('TGT-1-nope-test', form))).to.be.instanceOf(TicketNotFoundError);
      expect(await refusal(fakes.register.withTicket(await tgtOf(fakes, 'alice', 'secret'), form))).to.be.instanceOf(ForbiddenError);
      const tgt = await tgtOf(fakes, 'casuser', 'Mellon');
      for (const [field, bad] of [['description', ' '], ['serviceId', '('], ['evaluationOrder', '1.5'], ['enabled', 'maybe']] as const) {
        const error = await refusal(fakes.register.withTicket(tgt, { ...form, [field]: bad }));
        expect(error, field).to.be.instanceOf(InvalidServiceDefinitionError).with.property('field', field);
      }
    });
  });
});
