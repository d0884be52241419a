import { expect } from 'chai';
import { CHAINING_ATTRIBUTE_RELEASE_POLICY, DEFAULT_CONSENT_POLICY, effectiveConsentPolicy, RETURN_ALL_ATTRIBUTES, RETURN_ALLOWED_ATTRIBUTES } from '@tessera/core';
import { parseServiceDefinition, refusalOf, toCasServiceJson } from '../../built-in-codec.js';

const CAS = 'org.apereo.cas.services';
const BASE = { '@class': `${CAS}.CasRegisteredService`, id: 9, name: 'Consent', serviceId: '^https://consent\\.example\\.org/.*' };
const consentPolicy = (more: Record<string, unknown>) => ({ '@class': DEFAULT_CONSENT_POLICY, ...more });
const withRelease = (attributeReleasePolicy: Record<string, unknown>) => ({ ...BASE, attributeReleasePolicy });

describe('consentPolicy in the service JSON (a release policy’s, as CAS writes it)', () => {
  it('reads status, excludedAttributes, includeOnlyAttributes, excludedServices and order; round-trips, Mongo documents and the registry keeping the data as it is', () => {
    const json = withRelease({
      '@class': `${CAS}.ReturnAllAttributeReleasePolicy`,
      consentPolicy: consentPolicy({
        excludedAttributes: ['java.util.LinkedHashSet', ['test']],
        includeOnlyAttributes: ['java.util.LinkedHashSet', ['mail']],
        excludedServices: ['java.util.LinkedHashSet', ['https://example.*']],
        status: 'false',
        order: 1,
      }),
    });
    const parsed = parseServiceDefinition(json);
    expect(parsed.attributeRelease).to.deep.equal({
      type: RETURN_ALL_ATTRIBUTES,
      consentPolicy: { status: 'FALSE', excludedAttributes: ['test'], includeOnlyAttributes: ['mail'], excludedServices: ['https://example.*'], order: 1 },
    });
    const rendered = toCasServiceJson({ ...parsed, id: 9 });
    expect(rendered['attributeReleasePolicy']).to.deep.include({
      consentPolicy: {
        '@class': DEFAULT_CONSENT_POLICY,
        status: 'FALSE',
        excludedAttributes: ['java.util.HashSet', ['test']],
        includeOnlyAttributes: ['java.util.HashSet', ['mail']],
        excludedServices: ['java.util.HashSet', ['https://example.*']],
        order: 1,
      },
    });
    expect(parseServiceDefinition(rendered)).to.deep.equal({ ...parsed, id: 9 });
    expect(parseServiceDefinition(JSON.parse(JSON.stringify(rendered)))).to.deep.equal({ ...parsed, id: 9 });
  });

  it('status defaults to UNDEFINED; CAS 5’s `enabled: false` reads as FALSE', () => {
    const undefinedStatus = parseServiceDefinition(withRelease({ '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, consentPolicy: consentPolicy({}) }));
    expect(undefinedStatus.attributeRelease).to.deep.equal({ type: RETURN_ALL_ATTRIBUTES, consentPolicy: { status: 'UNDEFINED' } });
    expect(toCasServiceJson({ ...undefinedStatus, id: 9 })['attributeReleasePolicy']).to.deep.equal({ '@class': RETURN_ALL_ATTRIBUTES, consentPolicy: { '@class': DEFAULT_CONSENT_POLICY } });
    const legacy = parseServiceDefinition(withRelease({ '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['mail'], consentPolicy: consentPolicy({ enabled: false }) }));
    expect(legacy.attributeRelease).to.deep.equal({ type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail'], consentPolicy: { status: 'FALSE' } });
  });

  it('a chain’s policies each hold their own; the chain asks when any says TRUE, never when all say FALSE', () => {
    const member = (allowed: string, status: string) => ({ '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: [allowed], consentPolicy: consentPolicy({ status, includeOnlyAttributes: [allowed] }) });
    const chain = (...policies: unknown[]) => parseServiceDefinition(withRelease({ '@class': CHAINING_ATTRIBUTE_RELEASE_POLICY, policies: ['java.util.ArrayList', policies] })).attributeRelease;
    expect(effectiveConsentPolicy(chain(member('cn', 'TRUE'), member('displayName', 'FALSE')))).to.deep.equal({ status: 'TRUE', includeOnlyAttributes: ['cn', 'displayName'] });
    expect(effectiveConsentPolicy(chain(member('cn', 'FALSE'), member('displayName', 'FALSE'))).status).to.equal('FALSE');
    expect(effectiveConsentPolicy(chain(member('cn', 'FALSE'), { '@class': `${CAS}.ReturnAllAttributeReleasePolicy` })).status, 'a policy without one is UNDEFINED').to.equal('UNDEFINED');
  });

  it('refuses bad values, each by its field, every problem of the file at once; an unknown key by name', () => {
    expect(
      refusalOf(() =>
        parseServiceDefinition({
          ...withRelease({ '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, consentPolicy: consentPolicy({ status: 'ENABLED' }) }),
          evaluationOrder: 'soon',
        }),
      ),
    ).to.deep.equal(['evaluationOrder: must be an integer', 'attributeReleasePolicy.consentPolicy.status: must be one of TRUE, FALSE, UNDEFINED']);
    expect(refusalOf(() => parseServiceDefinition(withRelease({ '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, consentPolicy: consentPolicy({ excludedServices: ['(unclosed'] }) })))).to.deep.equal([
      'attributeReleasePolicy.consentPolicy.excludedServices: holds "(unclosed", which is not a regular expression',
    ]);
    expect(refusalOf(() => parseServiceDefinition(withRelease({ '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, consentPolicy: { '@class': 'com.example.MyConsentPolicy' } })))).to.deep.equal([
      `attributeReleasePolicy.consentPolicy.@class: must be ${DEFAULT_CONSENT_POLICY} (a chain's policies each hold their own consentPolicy)`,
    ]);
    expect(refusalOf(() => parseServiceDefinition(withRelease({ '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, consentPolicy: consentPolicy({ statuss: 'TRUE' }) }))).join('\n')).to.include(
      'attributeReleasePolicy.consentPolicy.statuss',
    );
  });
});
