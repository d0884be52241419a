import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import {
  CAS_SERVICES_ONLY,
  firstMatchingService,
  ServiceTypes,
  principalMeetsRequirements,
  selectService,
  compareServices,
  serviceComparisonKey,
} from '@tessera/core';
import { service } from './fakes.js';

describe('registered services (docs/protocol.md §4)', () => {
  describe('matching', () => {
    it('matches the whole URL, case-insensitively', () => {
      const services = [service({ serviceId: 'https://app\\.example\\.org/.*' })];
      expect(selectService(services, 'HTTPS://APP.EXAMPLE.ORG/x', CAS_SERVICES_ONLY)).to.equal(services[0]);
      expect(selectService(services, 'https://app.example.org.evil.com/x', CAS_SERVICES_ONLY)).to.equal(undefined);
      expect(selectService(services, 'http://evil.com/?https://app.example.org/', CAS_SERVICES_ONLY)).to.equal(undefined);
    });

    it("asks a module's service type whether CAS service URLs find it: never a client of another protocol, a matched type only while its module is on, any other class as a CAS service", () => {
      const client = { classes: ['org.example.ClientService', 'org.example.legacy.ClientService'], matchedByServiceUrl: false };
      const matched = { classes: ['org.example.MatchedService'], matchedByServiceUrl: true };
      const url = 'https://rp.example.org/callback';
      const of = (type: string) => service({ id: 1, type, serviceId: 'https://rp\\.example\\.org/.*' });
      const cas = service({ id: 2, serviceId: 'https://.*', evaluationOrder: 5 });
      const allOn = new ServiceTypes([client, matched]);
      for (const type of client.classes) {
        expect(selectService([of(type), cas], url, allOn), type).to.equal(cas);
        expect(firstMatchingService([of(type)], url, allOn), type).to.equal(undefined);
      }
      expect(selectService([of(matched.classes[0]!), cas], url, allOn)).to.deep.include({ id: 1 });
      // Its module off: as unregistered, so the next definition the URL finds answers.
      const moduleOff = new ServiceTypes([client, matched], [client]);
      expect(selectService([of(matched.classes[0]!), cas], url, moduleOff)).to.equal(cas);
      expect(firstMatchingService([of(matched.classes[0]!)], url, moduleOff)).to.equal(undefined);
      // A class no module declares (registration.acceptedTypes may add one) is a CAS service.
      expect(selectService([of('org.example.Custom')], url, allOn)).to.deep.include({ id: 1 });
    });

    it('refuses a service class two types declare, and one served that none declares', () => {
      expect(() => new ServiceTypes([{ classes: ['org.example.A'], matchedByServiceUrl: false }, { classes: ['org.example.A'], matchedByServiceUrl: true }])).to.throw('the service class org.example.A is declared twice');
      expect(() => new ServiceTypes([], [{ classes: ['org.example.A'], matchedByServiceUrl: false }])).to.throw('the service class org.example.A is served, but no module declares it');
    });

    it('orders by evaluationOrder, then name, then id; the first enabled match wins', () => {
      const broad = service({ id: 1, name: 'broad', serviceId: 'https://.*', evaluationOrder: 10 });
      const narrow = service({ id: 2, name: 'narrow', serviceId: 'https://app\\..*', evaluationOrder: 1 });
      const disabled = service({ id: 3, name: 'a-disabled', serviceId: 'https://.*', evaluationOrder: 0, accessStrategy: { enabled: false, ssoEnabled: true, requiredAttributes: {} } });
      const ordered = [broad, narrow, disabled].sort(compareServices);
      expect(ordered.map((s) => s.id)).to.deep.equal([3, 2, 1]);
      expect(selectService(ordered, 'https://app.example.org/', CAS_SERVICES_ONLY)).to.equal(narrow);
      expect(selectService(ordered, 'https://other.example.org/', CAS_SERVICES_ONLY)).to.equal(broad);
      const tie = [service({ id: 9, name: 'Beta' }), service({ id: 8, name: 'alpha' }), service({ id: 7, name: 'alpha' })].sort(compareServices);
      expect(tie.map((s) => s.id)).to.deep.equal([7, 8, 9]);
    });

    it('orders names the same on every node, whatever its locale (LANG)', () => {
      const names = ['Zeta', 'äpple', 'beta', 'app1', 'École', 'app_x'];
      const expected = ['app_x', 'app1', 'äpple', 'beta', 'École', 'Zeta'];
      const byName = (list: readonly string[]) => list.map((name, index) => service({ id: index + 1, name })).sort(compareServices).map((s) => s.name);
      expect(byName(names)).to.deep.equal(expected);
      // In a Swedish process localeCompare puts ä after z; the order must not follow the process's locale.
      const script = `const { compareServices } = await import(${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)});
        const names = ${JSON.stringify(names)};
        const services = names.map((name, index) => ({ id: index + 1, name, evaluationOrder: 0 }));
        console.log(JSON.stringify(services.sort(compareServices).map((s) => s.name)));`;
      const swedish = { ...process.env, LANG: 'sv_SE.UTF-8', LC_ALL: 'sv_SE.UTF-8' };
      const output = execFileSync(process.execPath, [...process.execArgv, '--input-type=module', '-e', script], { env: swedish, encoding: 'utf8' });
      expect(JSON.parse(output)).to.deep.equal(expected);
    });

    it('a service whose expiration date has passed is left out as a disabled one; a date alone ends at its first instant, UTC', () => {
      const expiring = (expirationDate: string) =>
        service({ serviceId: 'https://.*', expirationPolicy: { expirationDate, deleteWhenExpired: false, notifyWhenDeleted: false, notifyWhenExpired: false } });
      const now = Date.parse('2030-06-01T12:00:00Z');
      expect(selectService([expiring('2030-06-01')], 'https://a/', CAS_SERVICES_ONLY, { now })).to.equal(undefined);
      expect(selectService([expiring('2030-06-01T12:00:01')], 'https://a/', CAS_SERVICES_ONLY, { now })).to.not.equal(undefined);
      expect(selectService([expiring('2030-06-01T13:30:00+02:00')], 'https://a/', CAS_SERVICES_ONLY, { now })).to.equal(undefined);
      expect(selectService([expiring('2030-06-02')], 'https://a/', CAS_SERVICES_ONLY, { now })).to.not.equal(undefined);
    });

    it('an invalid pattern matches nothing', () => {
      expect(selectService([service({ serviceId: '([' })], '([', CAS_SERVICES_ONLY)).to.equal(undefined);
    });
  });

  describe('access strategy and attribute release', () => {
    const principal = { id: 'casuser', attributes: { memberOf: ['staff', 'faculty'], mail: ['casuser@example.org'] } };

    it('each required attribute needs one accepted value (whole-value patterns)', () => {
      const requiring = (requiredAttributes: Record<string, string[]>) => service({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes } });
      expect(principalMeetsRequirements(requiring({ memberOf: ['admin', 'faculty'] }), principal)).to.equal(true);
      expect(principalMeetsRequirements(requiring({ memberOf: ['sta'] }), principal)).to.equal(false);
      expect(principalMeetsRequirements(requiring({ memberOf: ['st.*'] }), principal)).to.equal(true);
      expect(principalMeetsRequirements(requiring({ memberOf: ['staff'], mail: ['.*@example\\.org'] }), principal)).to.equal(true);
      expect(principalMeetsRequirements(requiring({ memberOf: ['staff'], eduPerson: ['x'] }), principal)).to.equal(false);
    });

    // As CAS's DefaultRegisteredServiceAccessStrategy reads requireAllAttributes, caseInsensitive and rejectedAttributes.
    it('requireAllAttributes false: one required attribute matched is enough; none matched still refuses', () => {
      const anyOf = (requiredAttributes: Record<string, string[]>) => service({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes, requireAllAttributes: false } });
      expect(principalMeetsRequirements(anyOf({ memberOf: ['staff'], eduPerson: ['x'] }), principal)).to.equal(true);
      expect(principalMeetsRequirements(anyOf({ memberOf: ['guests'], eduPerson: ['x'] }), principal)).to.equal(false);
      expect(principalMeetsRequirements(anyOf({}), principal)).to.equal(true);
    });

    it('caseInsensitive matches required values case ignored; without it case counts', () => {
      const strategy = { enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['STAFF'] } };
      expect(principalMeetsRequirements(service({ accessStrategy: strategy }), principal)).to.equal(false);
      expect(principalMeetsRequirements(service({ accessStrategy: { ...strategy, caseInsensitive: true } }), principal)).to.equal(true);
    });

    it('a value matching a rejected attribute refuses, whatever the required ones say', () => {
      const rejecting = (rejectedAttributes: Record<string, string[]>, caseInsensitive?: true) =>
        service({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] }, rejectedAttributes, ...(caseInsensitive && { caseInsensitive }) } });
      expect(principalMeetsRequirements(rejecting({ memberOf: ['fac.*'] }), principal)).to.equal(false);
      expect(principalMeetsRequirements(rejecting({ memberOf: ['guests'] }), principal)).to.equal(true);
      expect(principalMeetsRequirements(rejecting({ memberOf: ['FACULTY'] }), principal)).to.equal(true);
      expect(principalMeetsRequirements(rejecting({ memberOf: ['FACULTY'] }, true), principal)).to.equal(false);
    });
  });

  it('service comparison key: decoded, no fragment, lower case; malformed escapes survive', () => {
    expect(serviceComparisonKey('https%3A%2F%2FApp.org%2Fa#frag')).to.equal('https://app.org/a');
    expect(serviceComparisonKey('https://app.org/%zz%41')).to.equal('https://app.org/%zza');
  });
});
