import { expect } from 'chai';
import {
  BUILT_IN_RELEASE_POLICIES,
  BUILT_IN_USERNAME_PROVIDERS,
  CHAINING_ATTRIBUTE_RELEASE_POLICY,
  DEFAULT_ATTRIBUTE_RELEASE,
  DEFAULT_USERNAME_PROVIDER,
  DENY_ALL_ATTRIBUTES,
  RETURN_ALL_ATTRIBUTES,
  RETURN_ALLOWED_ATTRIBUTES,
  RETURN_MAPPED_ATTRIBUTES,
  PRINCIPAL_ATTRIBUTE_USERNAME_PROVIDER,
  ANONYMOUS_USERNAME_PROVIDER,
  REGEX_ATTRIBUTE_FILTER,
  MAPPED_REGEX_ATTRIBUTE_FILTER,
  persistentId,
  ServicePolicies,
  UnknownServicePolicyError,
  storedReleasePolicy,
  type AttributeReleasePolicy,
  type ReleaseRequest,
  type ServicePolicy,
  type UsernameProvider,
} from '@tessera/core';
import { builtInServicePolicies } from '@tessera/testkit';
import { password, service } from './fakes.js';
import { APP, coreWithFakes } from './harness.js';

const principal = { id: 'casuser', attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } };
const AUTHENTICATION = { isFromNewLogin: ['true'], authenticationDate: ['2026-11-21T10:00:00Z'] };

function asked(attributeRelease: ServicePolicy, usernameProvider?: ServicePolicy): ReleaseRequest {
  return { principal, authentication: AUTHENTICATION, service: service({ attributeRelease, ...(usernameProvider && { usernameProvider }) }), serviceUrl: APP };
}

/** A test's own classes, registered from here: the registry and the use cases take them as they take the built-in ones. */
interface Chain extends ServicePolicy {
  readonly policies: readonly ServicePolicy[];
}
const CHAIN = 'org.example.ChainingPolicy';
const chaining: AttributeReleasePolicy<Chain> = {
  type: CHAIN,
  async release(policy, request, policies) {
    let released = {};
    for (const inner of policy.policies) released = { ...released, ...(await policies.release(inner, request)) };
    return released;
  },
};
const DEPARTMENT = 'org.example.DepartmentPolicy';
const department: AttributeReleasePolicy = { type: DEPARTMENT, release: () => Promise.resolve({ department: ['physics'] }) };
const MAIL_AS_USER = 'org.example.MailUsername';
const mailAsUser: UsernameProvider = { type: MAIL_AS_USER, username: (_provider, request) => Promise.resolve(request.principal.attributes['mail']?.[0] ?? request.principal.id) };

function withTestClasses(): ServicePolicies {
  return new ServicePolicies({ releasePolicies: [...BUILT_IN_RELEASE_POLICIES, chaining, department], usernameProviders: [...BUILT_IN_USERNAME_PROVIDERS, mailAsUser] });
}

describe('service policies: release policies and username providers by class', () => {
  describe('the built-in registrations', () => {
    const policies = builtInServicePolicies();

    it('ReturnAllAttributeReleasePolicy releases every attribute of the principal and the authentication', async () => {
      expect(await policies.releasedAttributes(asked({ type: RETURN_ALL_ATTRIBUTES }))).to.deep.equal({ ...principal.attributes, ...AUTHENTICATION });
    });

    it('ReturnAllowedAttributeReleasePolicy releases the listed attributes the principal has, and the authentication', async () => {
      const allowed = { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail', 'missing'] } as ServicePolicy;
      expect(await policies.releasedAttributes(asked(allowed))).to.deep.equal({ mail: ['casuser@example.org'], ...AUTHENTICATION });
    });

    it('the default of a service without a policy, as Apereo’s: no principal attribute, the authentication’s attributes', async () => {
      expect(await policies.releasedAttributes(asked(DEFAULT_ATTRIBUTE_RELEASE))).to.deep.equal(AUTHENTICATION);
    });

    it('ReturnAllowed and ReturnMapped find attribute names case ignored, as Apereo does; released as the policy writes them', async () => {
      const allowed = { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['MAIL', 'memberof', 'Mail', 'constructor'] } as ServicePolicy;
      expect(await policies.releasedAttributes(asked(allowed))).to.deep.equal({ MAIL: ['casuser@example.org'], memberof: ['staff', 'faculty'], ...AUTHENTICATION });
      const mapped = { type: RETURN_MAPPED_ATTRIBUTES, allowedAttributes: { MAIL: ['email'], MemberOf: ['groups'] } } as ServicePolicy;
      expect(await policies.releasedAttributes(asked(mapped))).to.deep.equal({ email: ['casuser@example.org'], groups: ['staff', 'faculty'], ...AUTHENTICATION });
      // The exact name wins over one that differs only in case.
      const both = { ...principal, attributes: { ...principal.attributes, Mail: ['other@example.org'] } };
      expect((await policies.releasedAttributes({ ...asked({ type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['Mail'] } as ServicePolicy), principal: both }))['Mail']).to.deep.equal(['other@example.org']);
      // excludedAttributes and the filters name attributes exactly, as Apereo's do.
      const excluded = { type: RETURN_ALL_ATTRIBUTES, excludedAttributes: ['MAIL'], authorizedToReleaseAuthenticationAttributes: false } as ServicePolicy;
      expect(await policies.releasedAttributes(asked(excluded))).to.deep.equal(principal.attributes);
      const filter = { type: MAPPED_REGEX_ATTRIBUTE_FILTER, patterns: { MEMBEROF: 'staff' }, excludeUnmappedAttributes: true, caseInsensitive: true, completeMatch: false };
      expect(await policies.releasedAttributes(asked({ type: RETURN_ALL_ATTRIBUTES, attributeFilter: filter, authorizedToReleaseAuthenticationAttributes: false } as ServicePolicy))).to.deep.equal({});
    });

    it('DenyAllAttributeReleasePolicy releases nothing, not even the authentication', async () => {
      expect(await policies.releasedAttributes(asked({ type: DENY_ALL_ATTRIBUTES }))).to.deep.equal({});
    });

    it('ReturnMapped releases each attribute under its names; the base settings filter values and hold back the authentication', async () => {
      const mapped = { type: RETURN_MAPPED_ATTRIBUTES, allowedAttributes: { mail: ['email'], memberOf: ['groups', 'roles'], missing: ['x'] } } as ServicePolicy;
      expect(await policies.releasedAttributes(asked(mapped))).to.deep.equal({ email: ['casuser@example.org'], groups: ['staff', 'faculty'], roles: ['staff', 'faculty'], ...AUTHENTICATION });
      const quiet = { type: RETURN_ALL_ATTRIBUTES, authorizedToReleaseAuthenticationAttributes: false, excludedAttributes: ['mail'] } as ServicePolicy;
      expect(await policies.releasedAttributes(asked(quiet))).to.deep.equal({ memberOf: ['staff', 'faculty'] });
      const regex = { type: RETURN_ALL_ATTRIBUTES, attributeFilter: { type: REGEX_ATTRIBUTE_FILTER, pattern: 'st.*|.*@example\\.org' } } as ServicePolicy;
      expect(await policies.releasedAttributes(asked(regex))).to.deep.equal({ mail: ['casuser@example.org'], memberOf: ['staff'], ...AUTHENTICATION });
      const filter = { type: MAPPED_REGEX_ATTRIBUTE_FILTER, patterns: { memberOf: 'FAC' }, excludeUnmappedAttributes: false, caseInsensitive: true, completeMatch: false };
      expect(await policies.releasedAttributes(asked({ type: RETURN_ALL_ATTRIBUTES, attributeFilter: filter } as ServicePolicy))).to.deep.equal({ mail: ['casuser@example.org'], memberOf: ['faculty'], ...AUTHENTICATION });
      const strict = { ...filter, excludeUnmappedAttributes: true, caseInsensitive: false };
      expect(await policies.releasedAttributes(asked({ type: RETURN_ALL_ATTRIBUTES, attributeFilter: strict, authorizedToReleaseAuthenticationAttributes: false } as ServicePolicy))).to.deep.equal({});
    });

    it('the user name from a principal attribute (canonicalized), or the principal id without it; the anonymous id salted per service URL', async () => {
      const byMail = (usernameAttribute: string, canonicalizationMode = 'NONE') => ({ type: PRINCIPAL_ATTRIBUTE_USERNAME_PROVIDER, usernameAttribute, canonicalizationMode }) as ServicePolicy;
      expect(await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }, byMail('mail')))).to.equal('casuser@example.org');
      expect(await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }, byMail('mail', 'UPPER')))).to.equal('CASUSER@EXAMPLE.ORG');
      expect(await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }, byMail('uid', 'UPPER')))).to.equal('CASUSER');
      expect(await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }, byMail('MAIL'))), 'the attribute’s name case ignored, as Apereo finds it').to.equal('casuser@example.org');
      // Apereo's oidc-authzcode-claim-sub: the pattern taken out, the scope added, then upper-cased.
      const scoped = { ...byMail('mail', 'UPPER'), removePattern: '@.+', scope: 'apereo.org' } as ServicePolicy;
      expect(await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }, scoped))).to.equal('CASUSER@APEREO.ORG');
      const anonymous = (salt: string, attribute?: string) => ({ type: ANONYMOUS_USERNAME_PROVIDER, salt, ...(attribute && { attribute }) }) as ServicePolicy;
      const id = await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }, anonymous('pepper')));
      // SHA-1 over "service!user!salt", base64: the id CAS's ShibbolethCompatiblePersistentIdGenerator gives.
      expect(id).to.equal('IM0u41T+H6o6qwdKgkwP8TfKcvc=');
      expect(await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }, anonymous('salt')))).not.to.equal(id);
      expect(await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }, anonymous('pepper', 'mail')))).to.equal(persistentId('casuser@example.org', APP, 'pepper'));
    });

    it('the user name is the principal id, without a provider and with the default one', async () => {
      expect(await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }))).to.equal('casuser');
      expect(await policies.usernameFor(asked({ type: DENY_ALL_ATTRIBUTES }, DEFAULT_USERNAME_PROVIDER))).to.equal('casuser');
    });
  });

  describe('the registry', () => {
    it('refuses a class it has no registration for, naming it and every known one', async () => {
      const policies = builtInServicePolicies();
      const release = await policies.releasedAttributes(asked({ type: 'org.example.Unknown' })).catch((error: unknown) => error);
      expect(release).to.be.instanceOf(UnknownServicePolicyError);
      expect((release as Error).message).to.equal(
        `org.example.Unknown is not an attribute release policy tessera knows (known: ${RETURN_ALL_ATTRIBUTES}, ${RETURN_ALLOWED_ATTRIBUTES}, ${RETURN_MAPPED_ATTRIBUTES}, ${DENY_ALL_ATTRIBUTES}, ${CHAINING_ATTRIBUTE_RELEASE_POLICY})`,
      );
      const username = await policies.usernameFor(asked({ type: RETURN_ALL_ATTRIBUTES }, { type: 'org.example.Anonymous' })).catch((error: unknown) => error);
      expect((username as Error).message).to.equal(
        `org.example.Anonymous is not a username provider tessera knows (known: org.apereo.cas.services.DefaultRegisteredServiceUsernameProvider, ${PRINCIPAL_ATTRIBUTE_USERNAME_PROVIDER}, ${ANONYMOUS_USERNAME_PROVIDER})`,
      );
    });

    it('refuses two registrations of one class', () => {
      expect(() => new ServicePolicies({ releasePolicies: [...BUILT_IN_RELEASE_POLICIES, { ...department, type: RETURN_ALL_ATTRIBUTES }], usernameProviders: [] })).to.throw(
        `${RETURN_ALL_ATTRIBUTES} is registered twice as an attribute release policy`,
      );
    });

    it('resolves the policies a policy holds through their own registrations', async () => {
      const chain: Chain = { type: CHAIN, policies: [{ type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail'] } as ServicePolicy, { type: DEPARTMENT }] };
      expect(await withTestClasses().releasedAttributes(asked(chain))).to.deep.equal({ mail: ['casuser@example.org'], ...AUTHENTICATION, department: ['physics'] });
      const broken: Chain = { type: CHAIN, policies: [{ type: 'org.example.Missing' }] };
      expect(await withTestClasses().releasedAttributes(asked(broken)).catch((error: unknown) => error)).to.be.instanceOf(UnknownServicePolicyError);
    });
  });

  describe('a validation answer goes through the service policies', () => {
    it("tells the service the user and attributes of a test's own registrations", async () => {
      const chain: Chain = { type: CHAIN, policies: [{ type: DEPARTMENT }] };
      const { core } = coreWithFakes([service({ attributeRelease: chain, usernameProvider: { type: MAIL_AS_USER } })], undefined, withTestClasses());
      const tgt = await core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] });
      const { ticket } = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [] });
      const answer = await core.validateServiceTicket.execute({ ticket: ticket.id, service: APP, renew: false });
      expect(answer.user).to.equal('casuser@example.org');
      expect(answer.attributes).to.deep.equal({ department: ['physics'] });
    });

    it('a policy of an unknown class fails the validation and releases nothing; the ticket is used up', async () => {
      const { core, events } = coreWithFakes([service({ attributeRelease: { type: 'org.example.Unknown' } })]);
      const tgt = await core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] });
      const { ticket } = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [] });
      const failure = await core.validateServiceTicket.execute({ ticket: ticket.id, service: APP, renew: false }).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(UnknownServicePolicyError).with.property('code', 'INVALID_CONFIGURATION');
      expect(events.ofType('ticket.validated')).to.deep.equal([]);
      const again = await core.validateServiceTicket.execute({ ticket: ticket.id, service: APP, renew: false }).catch((error: unknown) => error);
      expect(again).to.have.property('casCode', 'INVALID_TICKET');
    });
  });

  describe('a release policy as a store gives it back', () => {
    it("reads the previous versions' { kind } form as the policy it meant", () => {
      expect(storedReleasePolicy({ kind: 'none' })).to.deep.equal({ type: DENY_ALL_ATTRIBUTES });
      expect(storedReleasePolicy({ kind: 'all' })).to.deep.equal({ type: RETURN_ALL_ATTRIBUTES });
      expect(storedReleasePolicy({ kind: 'allowed', names: ['mail', 'memberOf'] })).to.deep.equal({ type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail', 'memberOf'] });
    });

    it("keeps today's form as it is, whatever the class", () => {
      const chain = { type: CHAIN, policies: [{ type: DEPARTMENT }] };
      expect(storedReleasePolicy(chain)).to.equal(chain);
      expect(storedReleasePolicy({ type: RETURN_ALL_ATTRIBUTES })).to.deep.equal({ type: RETURN_ALL_ATTRIBUTES });
    });
  });
});
