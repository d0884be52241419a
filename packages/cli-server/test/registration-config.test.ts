import { expect } from 'chai';
import { parseConfig } from '@tessera/cli-server';
import { configProblems as problems } from './config-problems.js';

const REGISTRATION = { requiredAttribute: { name: 'memberOf', valuePattern: 'admins' } };

// registration.* settings; no silent open registration
describe('configuration: registration (services module)', () => {
  it('registration: the current variant on, the earlier off, the two CAS classes accepted; nothing required while the module is off', () => {
    const { registration } = parseConfig({});
    expect(registration).to.deep.equal({
      current: true,
      earlier: false,
      requiredAttribute: {},
      acceptedTypes: ['org.apereo.cas.services.CasRegisteredService', 'org.apereo.cas.services.RegexRegisteredService'],
    });
    expect(parseConfig({ modules: ['rest', 'services'], registration: REGISTRATION }).registration.requiredAttribute).to.deep.equal(REGISTRATION.requiredAttribute);
    // No other module needed: its routes check credentials through the central handlers.
    expect(parseConfig({ modules: ['services'], registration: REGISTRATION }).modules).to.deep.equal(['services']);
  });

  const badSettings: [string, unknown, string][] = [
    ['services without the required attribute', { modules: ['rest', 'services'] }, 'registration.requiredAttribute.name: is required when the services module is on'],
    ['services without a value pattern', { modules: ['rest', 'services'], registration: { requiredAttribute: { name: 'memberOf' } } }, 'registration.requiredAttribute.valuePattern: is required when the services module is on'],
    ['a broken value pattern', { registration: { requiredAttribute: { name: 'memberOf', valuePattern: '(' } } }, 'registration.requiredAttribute.valuePattern: is not a valid regular expression'],
    ['no accepted types', { registration: { acceptedTypes: [] } }, 'registration.acceptedTypes: expected at least one class name'],
    ['a typo in registration', { registration: { curent: false } }, 'registration.curent: unknown setting'],
  ];

  for (const [what, raw, expected] of badSettings) {
    it(`names the setting: ${what}`, () => {
      expect(problems(raw), problems(raw).join('\n')).to.include(expected);
    });
  }
});
