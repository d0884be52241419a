import { expect } from 'chai';
import { BUILT_IN_RELEASE_POLICIES, BUILT_IN_USERNAME_PROVIDERS, ServicePolicies, type Principal, type ReleaseRequest, type ServicePolicy } from '@tessera/core';
import { claimsReleasePolicy, OIDC_CLIENT, SCOPE_RELEASE_POLICIES } from '@tessera/core/modules/oidc';
import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec } from '../../../src/index.js';
import { oauthClientType, oidcClientType, SCOPE_POLICY_CODECS } from '../../../src/modules/oidc/index.js';
import { refusalOf } from '../../built-in-codec.js';

const codec = serviceCodec({ releasePolicies: [...BUILT_IN_RELEASE_POLICY_CODECS, ...SCOPE_POLICY_CODECS], usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS, serviceTypes: [oidcClientType, oauthClientType] });
const policies = new ServicePolicies({ releasePolicies: [...BUILT_IN_RELEASE_POLICIES, ...SCOPE_RELEASE_POLICIES], usernameProviders: BUILT_IN_USERNAME_PROVIDERS });
const CLAIMS = 'org.apereo.cas.oidc.claims';
const client = (keys: Record<string, unknown>) => ({
  '@class': 'org.apereo.cas.services.OidcRegisteredService',
  id: 5,
  name: 'Client',
  serviceId: '^https://app\\.example\\.org/cb$',
  clientId: 'app',
  clientSecret: 'a-secret-of-at-least-16',
  ...keys,
});
const principal = { id: 'casuser', attributes: { mail: ['casuser@example.org'], cn: ['CAS User'], uid: ['cu'], locale: ['en'], memberOf: ['staff'] } };

/** What the client's claims are for `scopes` granted, its policy reconciled with its scopes as the provider does. */
function claimsFor(json: Record<string, unknown>, scopes: string[], claimsMap: Record<string, string> = {}, declared: Record<string, string[]> = {}, user: Principal = principal) {
  const parsed = codec.parse(json);
  const service = { ...parsed, id: 5 };
  const policy = claimsReleasePolicy(service.attributeRelease, OIDC_CLIENT.of(service)?.scopes ?? [], declared);
  const request: ReleaseRequest = { principal: user, service, serviceUrl: service.serviceId, authentication: {}, grant: { scopes, claimsMap } };
  return policies.release(policy, request);
}

// docs/services.md (Attribute release): Apereo's scope release policies, as the oidc module registers them.
describe("Apereo's OIDC scope release policies: codec and release", () => {
  it('reads and renders each class as Apereo writes it, alone or chained, its order the chain’s', () => {
    const json = client({
      attributeReleasePolicy: {
        '@class': 'org.apereo.cas.services.ChainingAttributeReleasePolicy',
        policies: [
          'java.util.ArrayList',
          [
            { '@class': `${CLAIMS}.OidcProfileScopeAttributeReleasePolicy`, order: 1, allowedAttributes: ['java.util.ArrayList', ['name']], claimMappings: { '@class': 'java.util.TreeMap', name: 'cn' } },
            { '@class': `${CLAIMS}.OidcEmailScopeAttributeReleasePolicy`, order: 2 },
            { '@class': `${CLAIMS}.OidcCustomScopeAttributeReleasePolicy`, scopeName: 'eduPerson', allowedAttributes: ['java.util.ArrayList', ['memberOf']] },
            { '@class': `${CLAIMS}.OidcAddressScopeAttributeReleasePolicy` },
            { '@class': `${CLAIMS}.OidcPhoneScopeAttributeReleasePolicy` },
            { '@class': `${CLAIMS}.OidcOpenIdScopeAttributeReleasePolicy` },
          ],
        ],
      },
    });
    const parsed = codec.parse(json);
    expect(codec.parse(codec.render({ ...parsed, id: 5 }))).to.deep.equal({ ...parsed, id: 5 });
    expect(codec.render({ ...parsed, id: 5 })['attributeReleasePolicy']).to.deep.include({ '@class': 'org.apereo.cas.services.ChainingAttributeReleasePolicy' });
  });

  it('refuses a Groovy claim mapping, a claim of no such scope in a standard scope’s allowedAttributes, and a custom scope without its name', () => {
    const refused = (attributeReleasePolicy: Record<string, unknown>) => refusalOf(() => codec.parse(client({ attributeReleasePolicy })));
    expect(refused({ '@class': `${CLAIMS}.OidcProfileScopeAttributeReleasePolicy`, claimMappings: { name: "groovy { return 'x' }" } })).to.deep.equal([
      'attributeReleasePolicy.claimMappings.name: a Groovy script cannot run in tessera; write the name of the attribute the claim takes its values from',
    ]);
    expect(refused({ '@class': `${CLAIMS}.OidcEmailScopeAttributeReleasePolicy`, allowedAttributes: ['organization'] })).to.deep.equal([
      'attributeReleasePolicy.allowedAttributes: holds "organization", no claim of the email scope (email, email_verified); release it with OidcCustomScopeAttributeReleasePolicy',
    ]);
    expect(refused({ '@class': `${CLAIMS}.OidcCustomScopeAttributeReleasePolicy`, allowedAttributes: ['organization'] })).to.deep.equal([
      'attributeReleasePolicy.scopeName: is required: the name of the scope, up to 64 letters, digits and _ . : -',
    ]);
  });

  it("releases a scope's claims only where it is granted, each from its own mapping, else the server's claims map, else its own name", async () => {
    const profile = client({ scopes: ['java.util.HashSet', ['openid', 'profile', 'email']], attributeReleasePolicy: { '@class': `${CLAIMS}.OidcProfileScopeAttributeReleasePolicy`, claimMappings: { preferred_username: 'uid' } } });
    expect(await claimsFor(profile, ['openid', 'profile', 'email'], { name: 'cn', email: 'mail' })).to.deep.equal({ preferred_username: ['cu'], name: ['CAS User'], locale: ['en'], email: ['casuser@example.org'] });
    expect(await claimsFor(profile, ['openid', 'email'], { email: 'mail' })).to.deep.equal({ email: ['casuser@example.org'] });
    expect(await claimsFor(profile, ['openid'])).to.deep.equal({});
  });

  it('finds the attribute of a claim whatever its case: the one of the name as written, else the first whose name differs only in case', async () => {
    const profile = client({ scopes: ['java.util.HashSet', ['openid', 'profile', 'email']], attributeReleasePolicy: { '@class': `${CLAIMS}.OidcProfileScopeAttributeReleasePolicy`, claimMappings: { nickname: 'UID' } } });
    const user = { id: 'casuser', attributes: { Locale: ['fr'], LOCALE: ['de'], Mail: ['first@example.org'], mail: ['exact@example.org'], uid: ['cu'], Name: ['CAS User'] } };
    expect(await claimsFor(profile, ['openid', 'profile', 'email'], { email: 'MAIL' }, {}, user)).to.deep.equal({ name: ['CAS User'], nickname: ['cu'], locale: ['fr'], email: ['first@example.org'] });
    expect(await claimsFor(profile, ['openid', 'email'], { email: 'mail' }, {}, user)).to.deep.equal({ email: ['exact@example.org'] });
  });

  it("reconciles as Apereo: a listed scope without a policy of the client's brings its standard (or declared) claims; a policy by no scope releases only for a scope-free client", async () => {
    const returnAll = { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' };
    expect(await claimsFor(client({ scopes: ['java.util.HashSet', ['openid', 'email']], attributeReleasePolicy: returnAll }), ['openid', 'email'], { email: 'mail' })).to.deep.equal({ email: ['casuser@example.org'] });
    expect(await claimsFor(client({ scopes: ['java.util.HashSet', ['openid', 'groups']], attributeReleasePolicy: returnAll }), ['openid', 'groups'], {}, { groups: ['memberOf'] })).to.deep.equal({ memberOf: ['staff'] });
    // A scope the server does not declare brings nothing; no claim scope at all: nothing either.
    expect(await claimsFor(client({ scopes: ['java.util.HashSet', ['openid', 'groups']], attributeReleasePolicy: returnAll }), ['openid', 'groups'])).to.deep.equal({});
    // Scope-free (scopes only openid, or none): the policy as it is.
    expect(await claimsFor(client({ scopes: ['java.util.HashSet', ['openid']], attributeReleasePolicy: returnAll }), ['openid'])).to.deep.equal(principal.attributes);
    expect(await claimsFor(client({ attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['memberOf'] } }), [])).to.deep.equal({ memberOf: ['staff'] });
  });

  it('outside a grant (no scopes to go by) a scope policy releases as if its scope were granted', async () => {
    const email: ServicePolicy = { type: `${CLAIMS}.OidcEmailScopeAttributeReleasePolicy` };
    const service = { ...codec.parse(client({})), id: 5, attributeRelease: email };
    expect(await policies.releasedAttributes({ principal: { id: 'u', attributes: { email: ['u@example.org'] } }, service, serviceUrl: service.serviceId, authentication: {} })).to.deep.equal({ email: ['u@example.org'] });
  });
});
