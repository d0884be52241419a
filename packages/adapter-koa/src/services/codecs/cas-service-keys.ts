import { distance } from 'fastest-levenshtein';
import { CAS_REGISTERED_SERVICE, type ServiceDefinitionProblem } from '@tessera/core';

/**
 * Which keys of an Apereo CAS service definition tessera reads, which CAS keys it knows but does not
 * implement, and which it accepts without reading. A key that is none of these is refused: a dropped
 * key (a misspelt `requiredAttributes`) would silently widen who may use a service.
 */
export interface KeyRules {
  /** Keys the parser reads. */
  readonly read: readonly string[];
  /**
   * CAS keys that only describe the service to people or restyle the login pages for it: tessera's
   * pages look the same for every service (`login.branding`), and nothing a user could do or receive
   * depends on them, so they are accepted and dropped.
   */
  readonly descriptive?: readonly string[];
  /** Keys of other classes (a class's simple name for each), refused with where they are read: CAS ignores them here. */
  readonly elsewhere?: Readonly<Record<string, string>>;
  /** CAS keys with a behaviour tessera does not have: refused, unless their value asks for what tessera does anyway. */
  readonly unsupported?: Readonly<Record<string, Unsupported>>;
}

export interface Unsupported {
  /** What tessera does instead, for the message. */
  readonly instead: string;
  /** The values that ask for tessera's own behaviour (as CAS's exports often spell out its defaults), and how to say so. */
  readonly accepted?: { readonly when: (value: unknown) => boolean; readonly as: string };
}

/**
 * Problems with the keys of one object, in the order they are written (`at` prefixes the field
 * names); `inside` gives those within the value of a key that is read. Empty when every key is allowed.
 */
export function keyProblems(
  object: Readonly<Record<string, unknown>>,
  rules: KeyRules,
  at = '',
  inside: (key: string, value: unknown, field: string) => ServiceDefinitionProblem[] = () => [],
): ServiceDefinitionProblem[] {
  const problems: ServiceDefinitionProblem[] = [];
  for (const [key, value] of Object.entries(object)) {
    const field = `${at}${key}`;
    if (rules.read.includes(key)) {
      problems.push(...inside(key, value, field));
      continue;
    }
    if (rules.descriptive?.includes(key)) continue;
    const unsupported = rules.unsupported && Object.hasOwn(rules.unsupported, key) ? rules.unsupported[key] : undefined;
    if (unsupported) {
      if (value === null || unsupported.accepted?.when(value)) continue;
      const accepted = unsupported.accepted ? `; accepted only as ${unsupported.accepted.as}` : '';
      problems.push({ field, problem: `not supported by tessera: ${unsupported.instead}${accepted}` });
      continue;
    }
    const owner = rules.elsewhere && Object.hasOwn(rules.elsewhere, key) ? rules.elsewhere[key] : undefined;
    problems.push({ field, problem: owner ? `unknown key for this class (CAS ignores it): it is read only with ${owner}` : unknownKeyProblem(key, rules) });
  }
  return problems;
}

/** `unknown key; did you mean X?` when a known key is near enough to be a typo of it, else the keys read. */
function unknownKeyProblem(key: string, rules: KeyRules): string {
  const candidates = [...rules.read, ...(rules.descriptive ?? []), ...Object.keys(rules.unsupported ?? {})];
  const nearest = nearestKey(key, candidates);
  return nearest ? `unknown key; did you mean ${nearest}?` : `unknown key (known: ${[...rules.read, ...(rules.descriptive ?? [])].join(', ')})`;
}

/** The candidate fewest edits away, case ignored, if that is few enough to be a slip (a third of the key, at least 2). */
function nearestKey(key: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(key.length / 3));
  let best: { candidate: string; edits: number } | undefined;
  for (const candidate of candidates) {
    const edits = distance(key.toLowerCase(), candidate.toLowerCase());
    if (edits <= limit && (best === undefined || edits < best.edits)) best = { candidate, edits };
  }
  return best?.candidate;
}

/** `@class` is the CAS class of that simple name, written fully or not; nothing else is set. */
function onlyClass(simpleName: string): (value: unknown) => boolean {
  return (value) => isRecord(value) && Object.keys(value).every((key) => key === '@class') && isClass(value['@class'], simpleName);
}

/** An empty collection, plain (`[]`, `{}`) or as CAS writes one (`["java.util.HashSet", []]`, `{"@class": "java.util.HashMap"}`). */
export function isEmptyCollection(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0 || (value.length === 2 && typeof value[0] === 'string' && Array.isArray(value[1]) && value[1].length === 0);
  return isRecord(value) && Object.keys(value).every((key) => key === '@class');
}

export function isClass(type: unknown, simpleName: string): boolean {
  return typeof type === 'string' && (type === simpleName || type.endsWith(`.${simpleName}`));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value is exactly `expected`. */
export const is =
  (expected: unknown) =>
  (value: unknown): boolean =>
    value === expected;

const DESCRIPTIVE_KEYS = ['theme', 'locale', 'contacts'];
/** How the login pages present a service, kept as written (cas-service-json.ts). */
export const PRESENTATION_KEYS = ['logo', 'informationUrl', 'privacyUrl'] as const;
export const PRINCIPAL_ID = 'the user in every answer is the principal id';
const WRITE_A_PROVIDER = 'write a usernameAttributeProvider (PrincipalAttributeRegisteredServiceUsernameProvider, AnonymousRegisteredServiceUsernameAttributeProvider)';
const PROXY_POLICY = 'a service may proxy as its proxyPolicy (RegexMatchingRegisteredServiceProxyPolicy) says';
const EVERY_HANDLER = 'every authentication handler is accepted for every service';

/** The keys of a service that hold its own ticket lifetimes (ticket-expiration-codec.ts reads them). */
export const TICKET_EXPIRATION_KEYS = ['ticketGrantingTicketExpirationPolicy', 'serviceTicketExpirationPolicy', 'proxyTicketExpirationPolicy', 'proxyGrantingTicketExpirationPolicy'] as const;

/** The classes of CAS's own services: CasRegisteredService, and RegexRegisteredService of CAS 5 to 6 and of CAS 4. */
export const CAS_SERVICE_CLASSES: readonly string[] = [CAS_REGISTERED_SERVICE, 'org.apereo.cas.services.RegexRegisteredService', 'org.jasig.cas.services.RegexRegisteredService'];

/** A registered service (CasRegisteredService, RegexRegisteredService). */
export const SERVICE_KEYS: KeyRules = {
  read: ['@class', 'id', 'name', 'serviceId', 'description', ...PRESENTATION_KEYS, 'evaluationOrder', 'accessStrategy', 'attributeReleasePolicy', 'usernameAttributeProvider', 'logoutType', 'logoutUrl', 'proxyPolicy', 'multifactorPolicy', 'properties', 'expirationPolicy', 'singleSignOnParticipationPolicy', 'supportedProtocols', 'templateName', ...TICKET_EXPIRATION_KEYS],
  descriptive: DESCRIPTIVE_KEYS,
  unsupported: {
    matchingStrategy: {
      instead: 'serviceId is always a regular expression over the whole URL, case ignored',
      accepted: { when: onlyClass('FullRegexRegisteredServiceMatchingStrategy'), as: 'org.apereo.cas.services.FullRegexRegisteredServiceMatchingStrategy' },
    },
    authenticationPolicy: { instead: EVERY_HANDLER },
    requiredHandlers: { instead: EVERY_HANDLER, accepted: { when: isEmptyCollection, as: 'an empty list' } },
    publicKey: { instead: 'attributes are never encrypted for a service' },
    environments: { instead: 'a service applies in every environment', accepted: { when: isEmptyCollection, as: 'an empty list' } },
    acceptableUsagePolicy: { instead: 'the login form asks no one to accept a usage policy; link to yours in login.branding.text' },
    webflowInterruptPolicy: { instead: 'a login goes on to its service at once, with no page between' },
    passwordlessPolicy: { instead: 'tessera always asks for a credential' },
    surrogatePolicy: { instead: 'tessera has no surrogate authentication' },
    redirectUrl: { instead: 'after a login the browser goes back, with its ticket, to the service URL the application sent and to no other' },
    responseType: {
      instead: 'the ticket goes back in a redirect, or in a form the browser posts when the application asks with method=POST; never in a header',
      accepted: { when: is('REDIRECT'), as: 'REDIRECT' },
    },
    // CAS 4.0 kept these on the service itself; read there, they would be lost.
    enabled: { instead: 'write it as accessStrategy.enabled' },
    ssoEnabled: { instead: 'write it as accessStrategy.ssoEnabled' },
    usernameAttribute: { instead: WRITE_A_PROVIDER },
    allowedToProxy: { instead: PROXY_POLICY, accepted: { when: is(false), as: 'false' } },
    anonymousAccess: { instead: WRITE_A_PROVIDER, accepted: { when: is(false), as: 'false' } },
  },
};

/** DefaultRegisteredServiceAccessStrategy; the other classes tessera reads add theirs to these (access-strategy-codec.ts). */
export const ACCESS_STRATEGY_KEYS: KeyRules = {
  read: ['@class', 'enabled', 'ssoEnabled', 'requiredAttributes', 'requireAllAttributes', 'caseInsensitive', 'rejectedAttributes', 'unauthorizedRedirectUrl', 'activationCriteria'],
  unsupported: {
    order: { instead: 'a service has one access strategy', accepted: { when: is(0), as: '0' } },
  },
  elsewhere: {
    startingDateTime: 'TimeBasedRegisteredServiceAccessStrategy',
    endingDateTime: 'TimeBasedRegisteredServiceAccessStrategy',
    zoneId: 'TimeBasedRegisteredServiceAccessStrategy',
    ipAddress: 'HttpRequestRegisteredServiceAccessStrategy',
    userAgent: 'HttpRequestRegisteredServiceAccessStrategy',
  },
};

/** The keys every Apereo release policy has (its base class's), refused unless they ask for what tessera does: for release policies' codec parts to share. */
export const RELEASE_UNSUPPORTED: Readonly<Record<string, Unsupported>> = {
  authorizedToReleaseCredentialPassword: { instead: 'the password is never released', accepted: { when: is(false), as: 'false' } },
  authorizedToReleaseProxyGrantingTicket: { instead: 'a proxy-granting ticket reaches its service only through the pgtUrl callback', accepted: { when: is(false), as: 'false' } },
  // tessera has no default attributes (CAS's from its own configuration) to exclude.
  excludeDefaultAttributes: { instead: 'there are no default attributes', accepted: { when: (value) => typeof value === 'boolean', as: 'true or false' } },
  principalIdAttribute: { instead: PRINCIPAL_ID },
  canonicalizationMode: { instead: 'attribute values are released as they are', accepted: { when: is('NONE'), as: 'NONE' } },
  activationCriteria: { instead: 'the release policy always applies' },
  excludedAttributes: { instead: 'only ReturnAllAttributeReleasePolicy reads excludedAttributes', accepted: { when: isEmptyCollection, as: 'an empty list' } },
  order: { instead: 'a service has one release policy', accepted: { when: is(0), as: '0' } },
};

/** The keys of the proxy policies tessera reads; undefined for any other class. */
export function proxyPolicyKeys(type: unknown): KeyRules | undefined {
  if (isClass(type, 'RegexMatchingRegisteredServiceProxyPolicy')) return { read: ['@class', 'pattern', 'useServiceId', 'exactMatch'] };
  if (isClass(type, 'RefuseRegisteredServiceProxyPolicy')) return { read: ['@class'] };
  return undefined;
}

/** DefaultRegisteredServiceExpirationPolicy. */
export const EXPIRATION_POLICY_KEYS: KeyRules = { read: ['@class', 'expirationDate', 'deleteWhenExpired', 'notifyWhenDeleted', 'notifyWhenExpired'] };

/** DefaultRegisteredServiceProperty, the value of each entry of `properties`. */
export const PROPERTY_KEYS: KeyRules = { read: ['@class', 'values'] };
