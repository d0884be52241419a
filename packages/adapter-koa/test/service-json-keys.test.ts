import { expect } from 'chai';
import { InvalidServiceDefinitionError } from '@tessera/core';
import { legacyServiceDefinition, parseServiceDefinition, refusalOf } from './built-in-codec.js';

const CAS = 'org.apereo.cas.services';
const BASE = { '@class': `${CAS}.CasRegisteredService`, id: 3, name: 'Intranet', serviceId: '^https://intranet\\.example\\.org/.*' };
const STRATEGY = `${CAS}.DefaultRegisteredServiceAccessStrategy`;

const problems = (json: unknown): string[] => refusalOf(() => parseServiceDefinition(json, { path: 'services[0]' }));

// A key the parser does not read must never be dropped: a misspelt requiredAttributes would admit everyone.
describe('service definitions fail closed on keys', () => {
  it('an unknown key at the top level is refused, naming it and the nearest known key', () => {
    expect(problems({ ...BASE, servceId: 'x' })).to.deep.equal(['services[0].servceId: unknown key; did you mean serviceId?']);
    expect(problems({ ...BASE, EvaluationOrder: 2 })).to.deep.equal(['services[0].EvaluationOrder: unknown key; did you mean evaluationOrder?']);
  });

  it('a key far from every known one lists the known keys instead of guessing', () => {
    const [problem] = problems({ ...BASE, colour: 'blue' });
    expect(problem).to.match(/^services\[0\]\.colour: unknown key \(known: @class, id, name, serviceId, description, logo, informationUrl, privacyUrl, evaluationOrder, accessStrategy, attributeReleasePolicy, usernameAttributeProvider, logoutType, logoutUrl, proxyPolicy, multifactorPolicy, properties/);
  });

  it('checks nested objects too: access strategy, release policy, and each property', () => {
    expect(problems({ ...BASE, accessStrategy: { '@class': STRATEGY, requiredAttribute: { memberOf: ['staff'] } } })).to.deep.equal([
      'services[0].accessStrategy.requiredAttribute: unknown key; did you mean requiredAttributes?',
    ]);
    expect(problems({ ...BASE, attributeReleasePolicy: { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttribute: ['mail'] } })).to.deep.equal([
      'services[0].attributeReleasePolicy.allowedAttribute: unknown key; did you mean allowedAttributes?',
    ]);
    // Only the allowed-list policy reads allowedAttributes: on "deny all" it is not what the author meant.
    expect(problems({ ...BASE, attributeReleasePolicy: { '@class': `${CAS}.DenyAllAttributeReleasePolicy`, allowedAttributes: ['mail'] } })[0]).to.match(
      /^services\[0\]\.attributeReleasePolicy\.allowedAttributes: unknown key/,
    );
    const property = { '@class': `${CAS}.DefaultRegisteredServiceProperty`, value: ['java.util.HashSet', ['true']] };
    expect(problems({ ...BASE, properties: { jwtAsServiceTicket: property } })).to.deep.equal([
      'services[0].properties.jwtAsServiceTicket.value: unknown key; did you mean values?',
    ]);
  });

  it('reports every key problem of a definition at once', () => {
    expect(problems({ ...BASE, servceId: 'x', accessStrategy: { ssoEnabeld: false, delegatedAuthenticationPolicy: { '@class': `${CAS}.x` } } })).to.have.length(3);
  });

  it('an Apereo CAS key tessera does not implement is refused as not supported, never ignored', () => {
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ usernameAttributeProvider: { '@class': `${CAS}.GroovyRegisteredServiceUsernameProvider`, groovyScript: 'file:/x.groovy' } }, /^services\[0\]\.usernameAttributeProvider: not supported by tessera: /],
      [{ allowedToProxy: true }, /^services\[0\]\.allowedToProxy: not supported by tessera: .*proxyPolicy.*accepted only as false/],
      [{ multifactorPolicy: { '@class': `${CAS}.DefaultRegisteredServiceMultifactorPolicy`, multifactorAuthenticationProviders: ['java.util.LinkedHashSet', ['mfa-duo']] } }, /^services\[0\]\.multifactorPolicy\.multifactorAuthenticationProviders: names mfa-duo, which tessera does not have; its one provider is mfa-gauth/],
      [{ authenticationPolicy: { '@class': `${CAS}.DefaultRegisteredServiceAuthenticationPolicy` } }, /^services\[0\]\.authenticationPolicy: not supported/],
      [
        { ticketGrantingTicketExpirationPolicy: { '@class': `${CAS}.DefaultRegisteredServiceTicketGrantingTicketExpirationPolicy`, maxTimeToLiveInSeconds: 30, userAgents: { '@class': 'java.util.HashMap', Firefox: 10 } } },
        /^services\[0\]\.ticketGrantingTicketExpirationPolicy\.userAgents: not supported by tessera: .*maxTimeToLiveInSeconds; accepted only as an empty map/,
      ],
      [{ enabled: false }, /^services\[0\]\.enabled: not supported by tessera: .*accessStrategy\.enabled/],
      [{ accessStrategy: { order: 2 } }, /^services\[0\]\.accessStrategy\.order: not supported by tessera: a service has one access strategy; accepted only as 0/],
      [{ attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, principalIdAttribute: 'mail' } }, /^services\[0\]\.attributeReleasePolicy\.principalIdAttribute: not supported/],
    ];
    for (const [keys, message] of refused) {
      const found = problems({ ...BASE, ...keys });
      expect(found, JSON.stringify(keys)).to.have.length(1);
      expect(found[0]).to.match(message);
    }
  });

  it('says, for the keys of the browser flow, what tessera does today and what to write instead', () => {
    const said = (keys: Record<string, unknown>) => problems({ ...BASE, ...keys });
    expect(said({ acceptableUsagePolicy: { '@class': `${CAS}.DefaultRegisteredServiceAcceptableUsagePolicy`, enabled: true } })).to.deep.equal([
      'services[0].acceptableUsagePolicy: not supported by tessera: the login form asks no one to accept a usage policy; link to yours in login.branding.text',
    ]);
    expect(said({ webflowInterruptPolicy: { '@class': `${CAS}.DefaultRegisteredServiceWebflowInterruptPolicy`, enabled: true } })).to.deep.equal([
      'services[0].webflowInterruptPolicy: not supported by tessera: a login goes on to its service at once, with no page between',
    ]);
    expect(said({ redirectUrl: 'https://intranet.example.org/welcome' })).to.deep.equal([
      'services[0].redirectUrl: not supported by tessera: after a login the browser goes back, with its ticket, to the service URL the application sent and to no other',
    ]);
    expect(said({ responseType: 'POST' })).to.deep.equal([
      'services[0].responseType: not supported by tessera: the ticket goes back in a redirect, or in a form the browser posts when the application asks with method=POST; never in a header; accepted only as REDIRECT',
    ]);
    // REDIRECT asks for what /login does anyway.
    expect(parseServiceDefinition({ ...BASE, responseType: 'REDIRECT' })).to.deep.equal(parseServiceDefinition(BASE));
  });

  it('accepts what CAS itself writes for the behaviour tessera has, and descriptive keys, as Apereo exports carry them; keeps how the login page presents the service', () => {
    const exported = {
      ...BASE,
      theme: 'intranet',
      informationUrl: 'https://intranet.example.org/about',
      privacyUrl: 'https://intranet.example.org/privacy',
      logo: 'https://intranet.example.org/logo.png',
      locale: 'en',
      contacts: ['java.util.ArrayList', [{ '@class': `${CAS}.DefaultRegisteredServiceContact`, name: 'Ops', email: 'ops@example.org' }]],
      proxyPolicy: { '@class': `${CAS}.RefuseRegisteredServiceProxyPolicy` },
      usernameAttributeProvider: { '@class': `${CAS}.DefaultRegisteredServiceUsernameProvider`, canonicalizationMode: 'NONE' },
      matchingStrategy: { '@class': `${CAS}.FullRegexRegisteredServiceMatchingStrategy` },
      requiredHandlers: ['java.util.HashSet', []],
      accessStrategy: { '@class': STRATEGY, requireAllAttributes: true, caseInsensitive: false, rejectedAttributes: { '@class': 'java.util.HashMap' } },
      attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, authorizedToReleaseCredentialPassword: false, authorizedToReleaseProxyGrantingTicket: false },
    };
    const presentation = { logo: exported.logo, informationUrl: exported.informationUrl, privacyUrl: exported.privacyUrl };
    expect(parseServiceDefinition(exported)).to.deep.equal(parseServiceDefinition({ ...BASE, ...presentation, proxyPolicy: exported.proxyPolicy, attributeReleasePolicy: exported.attributeReleasePolicy }));
    expect(parseServiceDefinition(exported)).to.include(presentation);
  });

  it('checks the keys of the proxy policies it reads, and refuses one of a class it does not read', () => {
    const regex = `${CAS}.RegexMatchingRegisteredServiceProxyPolicy`;
    expect(problems({ ...BASE, proxyPolicy: { '@class': regex, patern: '^https://.*' } })).to.deep.equal(['services[0].proxyPolicy.patern: unknown key; did you mean pattern?']);
    expect(problems({ ...BASE, proxyPolicy: { '@class': `${CAS}.RefuseRegisteredServiceProxyPolicy`, pattern: '^https://.*' } })[0]).to.match(/^services\[0\]\.proxyPolicy\.pattern: unknown key/);
    expect(problems({ ...BASE, proxyPolicy: { '@class': `${CAS}.GroovyRegisteredServiceProxyPolicy`, groovyScript: 'file:/x.groovy' } })).to.deep.equal([
      'services[0].proxyPolicy.@class: must be RefuseRegisteredServiceProxyPolicy or RegexMatchingRegisteredServiceProxyPolicy (org.apereo.cas.services)',
    ]);
  });

  it('the legacy registration form refuses fields it does not read, suggesting the nearest', () => {
    const form = { serviceId: '^https://a/.*', name: 'A', description: 'd' };
    expect(() => legacyServiceDefinition({ ...form, ssoEnable: 'false' })).to.throw(InvalidServiceDefinitionError, 'ssoEnable: unknown key; did you mean ssoEnabled?');
    expect(() => legacyServiceDefinition({ ...form, requiredAttributes: 'staff' })).to.throw(InvalidServiceDefinitionError, /^requiredAttributes: unknown key \(known: serviceId, name, description, evaluationOrder, enabled, ssoEnabled\)$/);
    expect(legacyServiceDefinition({ ...form, enabled: 'true' }).name).to.equal('A');
  });
});
