import { expect } from 'chai';
import { anAuthentication, aRegisteredService } from '@tessera/testkit';
import { DELEGATED_CREDENTIAL_TYPE, DELEGATION_POLICY, DelegatedAuthenticationRule, type DelegatedAuthenticationPolicy } from '@tessera/core/modules/delegation';

const rule = new DelegatedAuthenticationRule();

function serviceWith(policy?: Partial<DelegatedAuthenticationPolicy>) {
  return aRegisteredService(policy === undefined ? {} : { moduleData: { [DELEGATION_POLICY.key]: { allowedProviders: [], permitUndefined: true, exclusive: false, ...policy } } });
}

const password = anAuthentication({ credentials: [{ id: 'casuser', type: 'usernamePassword' }] });
const through = (provider: string) =>
  anAuthentication({ principal: { id: 'bob', attributes: { delegatedProvider: [provider] } }, credentials: [{ id: DELEGATED_CREDENTIAL_TYPE, type: DELEGATED_CREDENTIAL_TYPE }] });

// docs/modules/delegation.md "Which logins reach a service": Apereo CAS's isProviderAllowed and isProviderRequired.
describe('delegation: which logins a service’s delegatedAuthenticationPolicy lets in', () => {
  const cases: { readonly policy?: Partial<DelegatedAuthenticationPolicy>; readonly password: boolean; readonly partner: boolean; readonly other: boolean }[] = [
    { password: true, partner: true, other: true },
    { policy: {}, password: true, partner: true, other: true },
    { policy: { allowedProviders: ['partner'] }, password: true, partner: true, other: false },
    { policy: { allowedProviders: ['partner'], exclusive: true }, password: false, partner: true, other: false },
    { policy: { permitUndefined: false }, password: true, partner: false, other: false },
    { policy: { permitUndefined: false, exclusive: true }, password: false, partner: false, other: false },
    // Exclusive with every provider permitted: the providers are not the only way in (Apereo's isProviderRequired).
    { policy: { exclusive: true }, password: true, partner: true, other: true },
  ];
  for (const { policy, ...expected } of cases) {
    it(`${JSON.stringify(policy ?? 'no policy')}: password ${expected.password}, partner ${expected.partner}, other ${expected.other}`, () => {
      const service = serviceWith(policy);
      expect({ password: rule.allows(service, password), partner: rule.allows(service, through('partner')), other: rule.allows(service, through('other')) }).to.deep.equal(expected);
    });
  }

  it('a delegatedProvider attribute without a delegated proof (a directory attribute) is a password login', () => {
    const forged = anAuthentication({ principal: { id: 'eve', attributes: { delegatedProvider: ['partner'] } }, credentials: [{ id: 'eve', type: 'usernamePassword' }] });
    expect(rule.allows(serviceWith({ allowedProviders: ['partner'], exclusive: true }), forged)).to.equal(false);
  });
});
