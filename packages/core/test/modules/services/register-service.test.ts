import { expect } from 'chai';
import {
  ForbiddenError,
  InvalidConfigurationError,
  InvalidServiceDefinitionError,
  TicketNotFoundError,
  UnauthenticatedError,
  type RandomSource,
} from '@tessera/core';
import { RegisterService } from '@tessera/core/modules/services';
import { coreWithFakes } from '../../harness.js';
import { definition, password } from '../../fakes.js';

const POLICY = { requiredAttribute: { name: 'memberOf', valuePattern: 'STAFF|admins' } };
const NEW = definition({ name: 'New', serviceId: '^https://new\\.example\\.org/.*' });
/** The definition as an adapter reads it from the request. */
const read = (parsed = NEW) => () => parsed;
/** A definition that must not be read: the caller may not register. */
const unread = () => expect.fail('the definition was read');

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
    const saved = await register.withCredentials([password('casuser', 'Mellon')], read(), origin);
    expect(events.events.map((event) => [event.type, events.origins.get(event)])).to.deep.equal([
      ['authentication.succeeded', origin],
      ['service.saved', origin],
    ]);
    expect(saved.id).to.equal(0x010101010101 + 1);
    expect(await registry.findById(saved.id)).to.deep.equal(saved);
    expect(events.ofType('service.saved')).to.deep.equal([{ type: 'service.saved', serviceId: saved.id, name: 'New', replaced: false, principal: 'casuser' }]);
    expect((await core.relyingParties.find('https://new.example.org/x'))?.id).to.equal(saved.id);
  });

  it('draws again when the random id is taken', async () => {
    const draws = [new Uint8Array([0, 0, 0, 0, 0, 0]), new Uint8Array([0, 0, 0, 0, 0, 6])];
    const { register } = setup({ bytes: () => draws.shift() ?? expect.fail('no more draws') });
    expect((await register.withCredentials([password('casuser', 'Mellon')], read())).id).to.equal(7);
  });

  it('a definition with a stored id replaces it', async () => {
    const { register, registry } = setup();
    await register.withCredentials([password('casuser', 'Mellon')], read({ ...NEW, id: 1 }));
    expect((await registry.list()).map((s) => [s.id, s.name])).to.deep.equal([[1, 'New']]);
  });

  it('no or bad credentials: UnauthenticatedError, whatever the REST revision; the definition is not read', async () => {
    const { register } = setup();
    expect(await refusal(register.withCredentials([], unread))).to.be.instanceOf(UnauthenticatedError);
    expect(await refusal(register.withCredentials([password('casuser', 'nope')], unread))).to.be.instanceOf(UnauthenticatedError);
  });

  it('a principal without a matching value (case-insensitive, whole value) is forbidden; the definition is not read', async () => {
    const { register, registry } = setup();
    expect(await refusal(register.withCredentials([password('alice', 'secret')], unread))).to.be.instanceOf(ForbiddenError);
    const partial = setup(ONES, { ...POLICY, requiredAttribute: { name: 'memberOf', valuePattern: 'sta' } });
    expect(await refusal(partial.register.withCredentials([password('casuser', 'Mellon')], unread))).to.be.instanceOf(ForbiddenError);
    expect(await registry.list()).to.have.length(1);
  });

  it('a definition its reader finds invalid is refused with that error, naming the field; nothing is saved', async () => {
    const { register, registry } = setup();
    const invalid = new InvalidServiceDefinitionError('@class', 'must be one of org.apereo.cas.services.CasRegisteredService');
    const error = await refusal(register.withCredentials([password('casuser', 'Mellon')], () => { throw invalid; }));
    expect(error).to.equal(invalid);
    expect(await registry.list()).to.have.length(1);
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

    it("saves the definition for the TGT's principal; service.saved names the principal", async () => {
      const fakes = setup();
      const old = definition({ type: 'org.apereo.cas.services.RegexRegisteredService', name: 'Old', serviceId: '^https://old\\.example\\.org/.*', description: 'legacy' });
      const saved = await fakes.register.withTicket(await tgtOf(fakes, 'casuser', 'Mellon'), read(old));
      expect(fakes.events.ofType('service.saved')).to.deep.equal([{ type: 'service.saved', serviceId: saved.id, name: 'Old', replaced: false, principal: 'casuser' }]);
      expect(saved).to.deep.equal({ ...old, id: saved.id });
      expect(await fakes.registry.findById(saved.id)).to.deep.equal(saved);
    });

    it('unknown TGT and unauthorized principal, before the definition is read; an invalid definition', async () => {
      const fakes = setup();
      expect(await refusal(fakes.register.withTicket('TGT-1-nope-test', unread))).to.be.instanceOf(TicketNotFoundError);
      expect(await refusal(fakes.register.withTicket(await tgtOf(fakes, 'alice', 'secret'), unread))).to.be.instanceOf(ForbiddenError);
      const invalid = new InvalidServiceDefinitionError('enabled', 'must be true or false');
      expect(await refusal(fakes.register.withTicket(await tgtOf(fakes, 'casuser', 'Mellon'), () => { throw invalid; }))).to.equal(invalid);
      expect(await fakes.registry.list()).to.have.length(1);
    });
  });
});
