import { expect } from 'chai';
import { DENY_ALL_ATTRIBUTES, RETURN_ALL_ATTRIBUTES, RETURN_ALLOWED_ATTRIBUTES, type ServicePolicy } from '@tessera/core';
import { parseServiceDefinition, toCasServiceJson } from './built-in-codec.js';
import { service } from './fakes.js';

const NEW = { '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'New', serviceId: '^https://new\\.example\\.org/.*' };

// docs/protocol.md §4 — stored definitions round-trip as Apereo CAS JSON
describe('toCasServiceJson', () => {
  it('round-trips through parseServiceDefinition', () => {
    const original = service({
      id: 42,
      description: 'd',
      evaluationOrder: 7,
      accessStrategy: { enabled: false, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] } },
      attributeRelease: { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail'] } as ServicePolicy,
      properties: { jwtAsServiceTicket: ['true'] },
    });
    expect(parseServiceDefinition(toCasServiceJson(original))).to.deep.equal(original);
    for (const attributeRelease of [{ type: DENY_ALL_ATTRIBUTES }, { type: RETURN_ALL_ATTRIBUTES }]) {
      expect(parseServiceDefinition(toCasServiceJson(service({ attributeRelease })))).to.deep.equal(service({ attributeRelease }));
    }
  });

  it('round-trips every proxy policy, writing only the options that are not their default, as CAS does', () => {
    const policies = [
      { kind: 'refuse' },
      { kind: 'regex', pattern: '^https://app\\.example\\.org/pgt.*', useServiceId: false, exactMatch: false },
      { kind: 'regex', useServiceId: true, exactMatch: false },
      { kind: 'regex', pattern: 'https://app.example.org/pgt', useServiceId: false, exactMatch: true },
    ] as const;
    for (const proxyPolicy of policies) expect(parseServiceDefinition(toCasServiceJson(service({ proxyPolicy })))).to.deep.equal(service({ proxyPolicy }));
    expect(toCasServiceJson(service({ proxyPolicy: policies[1] }))['proxyPolicy']).to.deep.equal({
      '@class': 'org.apereo.cas.services.RegexMatchingRegisteredServiceProxyPolicy',
      pattern: '^https://app\\.example\\.org/pgt.*',
    });
    expect(toCasServiceJson(service())).to.not.have.property('proxyPolicy');
  });

  it('refuses a regex proxy policy without a usable pattern, naming the field', () => {
    const regex = (policy: Record<string, unknown>) => () =>
      parseServiceDefinition({ ...NEW, proxyPolicy: { '@class': 'org.apereo.cas.services.RegexMatchingRegisteredServiceProxyPolicy', ...policy } });
    expect(regex({})).to.throw(/^proxyPolicy\.pattern: is required \(a regular expression the pgtUrl must match\), unless useServiceId is true$/);
    expect(regex({ pattern: '^https://(' })).to.throw(/^proxyPolicy\.pattern: is not a valid regular expression$/);
    expect(regex({ pattern: 7 })).to.throw(/^proxyPolicy\.pattern: must be a string$/);
    expect(regex({ pattern: '^https://.*', exactMatch: 'yes' })).to.throw(/^proxyPolicy\.exactMatch: must be a boolean$/);
    expect(regex({ useServiceId: true })()).to.deep.include({ proxyPolicy: { kind: 'regex', useServiceId: true, exactMatch: false } });
    // Compared for equality, an exact pattern need not be a valid regular expression.
    expect(regex({ pattern: 'https://app.example.org/cb?a=(', exactMatch: true })().proxyPolicy).to.deep.include({ exactMatch: true });
  });

  it('writes Java collections as CAS does', () => {
    const json = toCasServiceJson(service({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] } } }));
    expect(json['accessStrategy']).to.deep.include({ requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] } });
  });
});
