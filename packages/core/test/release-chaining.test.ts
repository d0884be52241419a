import { expect } from 'chai';
import {
  CHAINING_ATTRIBUTE_FILTER,
  CHAINING_ATTRIBUTE_RELEASE_POLICY,
  filterAttributes,
  MAPPED_REGEX_ATTRIBUTE_FILTER,
  mergeReleases,
  MUTANT_REGEX_ATTRIBUTE_FILTER,
  participatesInSingleSignOn,
  REGEX_ATTRIBUTE_FILTER,
  RETURN_ALL_ATTRIBUTES,
  RETURN_ALLOWED_ATTRIBUTES,
  RETURN_MAPPED_ATTRIBUTES,
  REVERSE_MAPPED_REGEX_ATTRIBUTE_FILTER,
  type ChainingAttributes,
  type MergingPolicy,
  type ReleaseRequest,
  type ServicePolicy,
  type TicketGrantingTicket,
} from '@tessera/core';
import { builtInServicePolicies } from '@tessera/testkit';
import { service } from './fakes.js';
import { APP } from './harness.js';

const principal = { id: 'casuser', attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } };
const AUTHENTICATION = { isFromNewLogin: ['true'], authenticationDate: ['2026-11-21T10:00:00Z'] };
const asked = (attributeRelease: ServicePolicy): ReleaseRequest => ({ principal, authentication: AUTHENTICATION, service: service({ attributeRelease }), serviceUrl: APP });
const policies = builtInServicePolicies();

const chain = (mergingPolicy: MergingPolicy, ...entries: [number, ServicePolicy][]): ChainingAttributes => ({
  type: CHAINING_ATTRIBUTE_RELEASE_POLICY,
  mergingPolicy,
  policies: entries.map(([order, policy]) => ({ order, policy })),
});
const mappedPolicy = (allowedAttributes: Record<string, string[]>, more: Record<string, unknown> = {}) => ({ type: RETURN_MAPPED_ATTRIBUTES, allowedAttributes, ...more }) as ServicePolicy;
const allowedPolicy = (...allowedAttributes: string[]) => ({ type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes }) as ServicePolicy;

describe('ChainingAttributeReleasePolicy, as Apereo CAS merges a chain', () => {
  it('runs its policies by order, ties as written; a later one sees what an earlier one renamed; the authentication is released once', async () => {
    const renamedThenAllowed = chain('REPLACE', [1, allowedPolicy('email')], [0, mappedPolicy({ mail: ['email'] })]);
    expect(await policies.releasedAttributes(asked(renamedThenAllowed))).to.deep.equal({ email: ['casuser@example.org'], ...AUTHENTICATION });
    const lastWins = chain('DESTINATION', [0, allowedPolicy('mail')], [0, allowedPolicy('memberOf')]);
    expect(await policies.releasedAttributes(asked(lastWins))).to.deep.equal({ memberOf: ['staff', 'faculty'], ...AUTHENTICATION });
  });

  it('ignores what its policies say of the authentication attributes, as the chain decides them', async () => {
    const quiet = chain('REPLACE', [0, mappedPolicy({ mail: ['email'] }, { authorizedToReleaseAuthenticationAttributes: false })]);
    expect(await policies.releasedAttributes(asked(quiet))).to.deep.equal({ email: ['casuser@example.org'], ...AUTHENTICATION });
    expect(await policies.releasedAttributes({ ...asked(quiet), authentication: {} })).to.deep.equal({ email: ['casuser@example.org'] });
  });

  it('holds chains, filters within its policies apply to each policy’s own release', async () => {
    const filtered = mappedPolicy({ memberOf: ['groups'] }, { attributeFilter: { type: REGEX_ATTRIBUTE_FILTER, pattern: 'fac.*' } });
    const nested = chain('MULTIVALUED', [0, chain('REPLACE', [0, filtered])], [1, { type: RETURN_ALL_ATTRIBUTES }]);
    // MULTIVALUED sorts the values it merges: memberOf comes back sorted.
    expect(await policies.releasedAttributes(asked(nested))).to.deep.equal({ groups: ['faculty'], mail: ['casuser@example.org'], memberOf: ['faculty', 'staff'], ...AUTHENTICATION });
  });

  it('merges by REPLACE, ADD, MULTIVALUED (each value once, case ignored, sorted), SOURCE and DESTINATION', () => {
    const released = { a: ['x'], b: ['Beta'] };
    const added = { b: ['alpha', 'beta'], c: ['y'] };
    expect(mergeReleases('REPLACE', released, added)).to.deep.equal({ a: ['x'], b: ['alpha', 'beta'], c: ['y'] });
    expect(mergeReleases('ADD', released, added)).to.deep.equal({ a: ['x'], b: ['Beta'], c: ['y'] });
    expect(mergeReleases('MULTIVALUED', released, added)).to.deep.equal({ a: ['x'], b: ['Beta', 'alpha'], c: ['y'] });
    expect(mergeReleases('SOURCE', released, added)).to.deep.equal(released);
    expect(mergeReleases('DESTINATION', released, added)).to.deep.equal(added);
  });
});

describe('the attribute filters Apereo CAS ships', () => {
  const attributes = { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty', 'math101'] };
  const settings = { excludeUnmappedAttributes: false, caseInsensitive: true, completeMatch: false };

  it('reverse mapped regex keeps the values its pattern does not match, and drops an attribute left with none', () => {
    expect(filterAttributes({ type: REVERSE_MAPPED_REGEX_ATTRIBUTE_FILTER, patterns: { memberOf: 'F' }, ...settings }, attributes)).to.deep.equal({ mail: attributes.mail, memberOf: ['math101'] });
    expect(filterAttributes({ type: REVERSE_MAPPED_REGEX_ATTRIBUTE_FILTER, patterns: { mail: '@' }, ...settings, excludeUnmappedAttributes: true }, attributes)).to.deep.equal({});
  });

  it('mutant regex rewrites matches with their groups, pattern after pattern, and keeps a value as it is without a template', () => {
    const mutant = { type: MUTANT_REGEX_ATTRIBUTE_FILTER, ...settings, patterns: { memberOf: [{ pattern: '^mat(.+)(101)', template: 'COURSE-$1$2' }, { pattern: 'STAFF' }] } } as const;
    expect(filterAttributes(mutant, attributes)).to.deep.equal({ mail: attributes.mail, memberOf: ['COURSE-h101', 'staff'] });
    expect(filterAttributes({ ...mutant, caseInsensitive: false }, attributes)).to.deep.equal({ mail: attributes.mail, memberOf: ['COURSE-h101'] });
    // A group the pattern does not have stays as written, as CAS leaves it.
    expect(filterAttributes({ ...mutant, completeMatch: true, patterns: { memberOf: [{ pattern: 'mat(.*)', template: '$1$2' }] } }, attributes)).to.deep.equal({ mail: attributes.mail, memberOf: ['h101$2'] });
  });

  it('chaining filters each filter all the attributes, by order, a later filter’s attribute replacing an earlier one’s', () => {
    const chained = {
      type: CHAINING_ATTRIBUTE_FILTER,
      filters: [
        { order: 2, filter: { type: REGEX_ATTRIBUTE_FILTER, pattern: 'fac.*' } },
        { order: 1, filter: { type: MAPPED_REGEX_ATTRIBUTE_FILTER, patterns: { memberOf: '^staff$' }, ...settings } },
      ],
    } as const;
    expect(filterAttributes(chained, attributes)).to.deep.equal({ mail: attributes.mail, memberOf: ['faculty'] });
  });
});

describe('single sign-on participation policies', () => {
  const login = Date.UTC(2026, 10, 21, 10, 0, 0);
  const lifetimes = { tgtTimeToKillSeconds: 7200 };
  const tgt = (lastGrant: number, hardExpiresAt = login + 8 * 3_600_000): TicketGrantingTicket => ({
    kind: 'TGT',
    id: 'TGT-1',
    authentication: { principal, authenticatedAt: login, credentials: [], successes: {}, attributes: {} },
    createdAt: login,
    hardExpiresAt,
    expiresAt: Math.min(lastGrant + 7_200_000, hardExpiresAt),
    servicesGranted: 1,
  });
  const minutes = (count: number) => count * 60_000;

  it('by authentication date, last use, never, always, and a chain of them all', () => {
    const byLogin = { kind: 'authenticationDate', timeUnit: 'MINUTES', timeValue: 5, order: 0 } as const;
    const byUse = { kind: 'lastUsedTime', timeUnit: 'SECONDS', timeValue: 300, order: 0 } as const;
    const used = tgt(login + minutes(10));
    expect(participatesInSingleSignOn(byLogin, used, login + minutes(4), lifetimes)).to.equal(true);
    expect(participatesInSingleSignOn(byLogin, used, login + minutes(5), lifetimes)).to.equal(false);
    expect(participatesInSingleSignOn(byUse, used, login + minutes(14), lifetimes)).to.equal(true);
    expect(participatesInSingleSignOn(byUse, used, login + minutes(15), lifetimes)).to.equal(false);
    expect(participatesInSingleSignOn({ ...byUse, timeValue: 0 }, used, login + minutes(600), lifetimes)).to.equal(true);
    expect(participatesInSingleSignOn({ kind: 'never' }, used, login, lifetimes)).to.equal(false);
    expect(participatesInSingleSignOn({ kind: 'always' }, used, login + minutes(600), lifetimes)).to.equal(true);
    expect(participatesInSingleSignOn({ kind: 'chain', policies: [byLogin, byUse] }, used, login + minutes(6), lifetimes)).to.equal(false);
    expect(participatesInSingleSignOn({ kind: 'chain', policies: [] }, used, login, lifetimes)).to.equal(true);
  });

  it('reads the last use early, never late, when the hard limit cut the sliding expiry short', () => {
    // Last granted at 400 minutes, but the expiry stopped at the hard limit (450), so the use reads as 450 - 120 = 330.
    const nearTheEnd = tgt(login + minutes(400), login + minutes(450));
    const byUse = { kind: 'lastUsedTime', timeUnit: 'MINUTES', timeValue: 60, order: 0 } as const;
    expect(participatesInSingleSignOn(byUse, nearTheEnd, login + minutes(389), lifetimes)).to.equal(true);
    expect(participatesInSingleSignOn(byUse, nearTheEnd, login + minutes(390), lifetimes)).to.equal(false);
  });
});
