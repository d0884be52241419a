import type { AttributeMap } from '../authentication/principal.js';
import type { MultifactorPolicy } from './multifactor-policy.js';
import type { SingleSignOnParticipation } from './single-sign-on-participation.js';
import type { ProxyGrantingTicketExpiration, TicketGrantingTicketExpiration, UseLimitedTicketExpiration } from './ticket-expiration.js';

export interface AccessStrategy {
  /** Disabled behaves exactly as unregistered. */
  readonly enabled: boolean;
  /** false: every ST needs a fresh login (renew with credentials). */
  readonly ssoEnabled: boolean;
  /** Attribute name → accepted values (whole-value regexes); each name needs one match (see requireAllAttributes). */
  readonly requiredAttributes: AttributeMap;
  /** CAS's `requireAllAttributes`, kept only when false: then one required attribute matched is enough. */
  readonly requireAllAttributes?: false;
  /** CAS's `caseInsensitive`, kept only when true: required and rejected values match case ignored. */
  readonly caseInsensitive?: true;
  /** CAS's `rejectedAttributes`, kept only when not empty: a principal with one value matching is refused. */
  readonly rejectedAttributes?: AttributeMap;
  /**
   * CAS's `unauthorizedRedirectUrl` (absolute http or https): where `/login` sends a browser this
   * strategy refuses (a 302), instead of its error page. REST and the validation endpoints keep their answers.
   */
  readonly unauthorizedRedirectUrl?: string;
  /** CAS's TimeBasedRegisteredServiceAccessStrategy: outside this window the service is refused as a disabled one. */
  readonly window?: AccessWindow;
  /** CAS's HttpRequestRegisteredServiceAccessStrategy: a request whose client does not match is refused as for a disabled service. */
  readonly request?: RequestRules;
  /**
   * CAS's `activationCriteria` (AttributeBasedRegisteredServiceAccessStrategyActivationCriteria): the
   * attribute rules above apply only to a principal it activates for; any other is allowed or refused
   * as `allowIfInactive` says. Enabled, the window and the request rules apply to everyone.
   */
  readonly activation?: ActivationCriteria;
}

/**
 * When the attribute rules of a strategy apply: each `requiredAttributes` name (all of them with
 * `AND`, one with `OR`) needs a principal value in which one of its values is found, case ignored,
 * as CAS finds them. `order` is kept as written, for the definition to round-trip.
 */
export interface ActivationCriteria {
  readonly requiredAttributes: AttributeMap;
  readonly operator: 'AND' | 'OR';
  readonly allowIfInactive: boolean;
  readonly order?: number;
}

/**
 * A time window as CAS writes it: ISO date-times as written, each with an offset (`2030-01-31T09:00:00+01:00`)
 * or local to `zoneId` (`2030-01-31T09:00:00`, or a date alone: its first instant); `zoneId` as
 * written, UTC when absent. Either end may be open.
 */
export interface AccessWindow {
  readonly startingDateTime?: string;
  readonly endingDateTime?: string;
  readonly zoneId?: string;
}

/** Regular expressions, each found anywhere in its value, case ignored (as CAS matches them); an absent one matches every request. */
export interface RequestRules {
  /** Against the client address tessera derives (the TCP peer, or behind `server.trustProxy` the forwarded one). */
  readonly ipAddress?: string;
  /** Against the `User-Agent` header; a request without one does not match. */
  readonly userAgent?: string;
}

/**
 * CAS's `proxyPolicy`: whether the service may get proxy-granting tickets, and for which callback URLs.
 * `regex` (RegexMatchingRegisteredServiceProxyPolicy): a pgtUrl matching `pattern` as a whole, case
 * ignored; with `useServiceId` the service's own serviceId is the pattern; with `exactMatch` the pgtUrl
 * must equal the pattern. `refuse` (RefuseRegisteredServiceProxyPolicy, the default): never.
 */
export type ProxyPolicy =
  | { readonly kind: 'refuse' }
  | { readonly kind: 'regex'; readonly pattern?: string; readonly useServiceId: boolean; readonly exactMatch: boolean };

/**
 * One policy of a service as data: its Apereo CAS `@class`, fully qualified, and its settings, plain
 * JSON so every store keeps it as it is. What it does is the registration of that class
 * (`ServicePolicies`, ports/service-policies.ts); a policy may hold others (a chain, a filter's).
 */
export interface ServicePolicy {
  readonly type: string;
}

/** A service definition, as Apereo CAS's registered services (docs/protocol.md §4). */
export interface RegisteredService {
  readonly id: number;
  /** The CAS `@class` it was defined with, kept so the definition round-trips. */
  readonly type: string;
  readonly name: string;
  /** A regex matched case-insensitively against the whole service URL. */
  readonly serviceId: string;
  readonly description?: string;
  /**
   * CAS's `logo`, `informationUrl` and `privacyUrl`, kept as written when the definition has them: the
   * login pages show the logo and link the pages beside the service's name (an absolute https logo
   * and http(s) pages only; anything else is kept, not shown).
   */
  readonly logo?: string;
  readonly informationUrl?: string;
  readonly privacyUrl?: string;
  readonly evaluationOrder: number;
  readonly accessStrategy: AccessStrategy;
  /** CAS's `attributeReleasePolicy`: what the service receives of the principal and the authentication. */
  readonly attributeRelease: ServicePolicy;
  /** CAS's `usernameAttributeProvider`: the user name the service sees; absent, the principal id (the default provider). */
  readonly usernameProvider?: ServicePolicy;
  readonly properties: AttributeMap;
  /**
   * CAS's `logoutType`: `BACK_CHANNEL` opts the service in to single logout (the login module tells it
   * when a login session it took part in ends, server to server); `FRONT_CHANNEL` too, through the
   * user's browser on the logout page; absent or `NONE`, it is never told.
   */
  readonly logoutType?: LogoutType;
  /** CAS's `logoutUrl`: where the logout request goes; absent, the service URL the ticket was issued for. */
  readonly logoutUrl?: string;
  /** CAS's `proxyPolicy`, kept only when the definition has one; absent, the service may not proxy. */
  readonly proxyPolicy?: ProxyPolicy;
  /** CAS's `expirationPolicy` with a date, kept only when it has one: from then on the service behaves as an unregistered one. */
  readonly expirationPolicy?: ExpirationPolicy;
  /** CAS's `ticketGrantingTicketExpirationPolicy`, kept only when the definition has one: the lifetime of a session a login for this service starts (ticket-expiration.ts). */
  readonly ticketGrantingTicketExpiration?: TicketGrantingTicketExpiration;
  /** CAS's `serviceTicketExpirationPolicy`, kept only when the definition has one: the lifetime of this service's STs. */
  readonly serviceTicketExpiration?: UseLimitedTicketExpiration;
  /** CAS's `proxyTicketExpirationPolicy`, kept only when the definition has one: the lifetime of the PTs granted for this service. */
  readonly proxyTicketExpiration?: UseLimitedTicketExpiration;
  /** CAS's `proxyGrantingTicketExpirationPolicy`, kept only when the definition has one: the lifetime of the PGTs this service gets. */
  readonly proxyGrantingTicketExpiration?: ProxyGrantingTicketExpiration;
  /** CAS's `multifactorPolicy`, kept only when the definition has one: a second factor this service asks (step-up included). */
  readonly multifactorPolicy?: MultifactorPolicy;
  /** CAS's `singleSignOnParticipationPolicy`, kept only when the definition has one: when a login session logs a browser in to the service without the form. */
  readonly singleSignOnParticipation?: SingleSignOnParticipation;
  /**
   * CAS's `supportedProtocols`, kept only when not empty: the validation protocols the service's
   * tickets validate with (`CAS10` /validate, `CAS20` /serviceValidate and /proxyValidate, `CAS30`
   * the /p3 paths, `SAML1` /samlValidate), and the names modules' service types give their own
   * protocols, accepted and standing for no validation endpoint.
   */
  readonly supportedProtocols?: readonly string[];
  /**
   * What modules read of the definition, each module's data under its own key (service-data.ts): the
   * keys of a service class a module brings, the keys any service may carry for a module. Kept only
   * when some module holds data; plain JSON that every store keeps as it is.
   */
  readonly moduleData?: Readonly<Record<string, unknown>>;
}

/** The protocols a validation endpoint speaks, as `supportedProtocols` names them. */
export const VALIDATION_PROTOCOLS: readonly string[] = ['CAS10', 'CAS20', 'CAS30', 'SAML1'] satisfies readonly ValidationProtocol[];
export type ValidationProtocol = 'CAS10' | 'CAS20' | 'CAS30' | 'SAML1';

/** Whether the service's tickets may validate with `protocol`: every protocol when it names none. */
export function supportsProtocol(service: Pick<RegisteredService, 'supportedProtocols'>, protocol: ValidationProtocol): boolean {
  return service.supportedProtocols === undefined || service.supportedProtocols.includes(protocol);
}

/**
 * CAS's DefaultRegisteredServiceExpirationPolicy: `expirationDate` as written (a date, or a date and
 * time, UTC unless it says otherwise); the three flags are kept so the definition round-trips (tessera
 * deletes nothing and notifies no one: an expired service is refused).
 */
export interface ExpirationPolicy {
  readonly expirationDate: string;
  readonly deleteWhenExpired: boolean;
  readonly notifyWhenDeleted: boolean;
  readonly notifyWhenExpired: boolean;
}

/** The instant an expiration date stands for (a date alone is its first instant, UTC); NaN when it is none. */
export function expirationInstant(expirationDate: string): number {
  const text = expirationDate.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return Date.parse(`${text}T00:00:00Z`);
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(text)) return Date.parse(`${text}Z`);
  return /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text.replace(/\[.*\]$/, '')) : Number.NaN;
}

/** The service has expired at `now` (ms since the epoch): its expiration date has passed. */
export function hasExpired(service: Pick<RegisteredService, 'expirationPolicy'>, now: number): boolean {
  return service.expirationPolicy !== undefined && now >= expirationInstant(service.expirationPolicy.expirationDate);
}

/** A service definition before the registry has assigned an id (when it came without one). */
export type ServiceDefinition = Omit<RegisteredService, 'id'> & { readonly id?: number };

export const LOGOUT_TYPES = ['NONE', 'BACK_CHANNEL', 'FRONT_CHANNEL'] as const;
export type LogoutType = (typeof LOGOUT_TYPES)[number];

/** Whether the service is to be told, by a back-channel logout request, when a login session ends. */
export function wantsBackChannelLogout(service: RegisteredService): boolean {
  return service.logoutType === 'BACK_CHANNEL';
}

/** Whether the service is to be told when a login session ends, by either channel. */
export function wantsSingleLogout(service: RegisteredService): boolean {
  return service.logoutType === 'BACK_CHANNEL' || service.logoutType === 'FRONT_CHANNEL';
}

export const CAS_REGISTERED_SERVICE = 'org.apereo.cas.services.CasRegisteredService';

/**
 * Names in one fixed locale's order: `localeCompare` without a locale follows each process's own
 * (LANG), so nodes set up differently would order, and so match, services differently.
 */
const NAME_ORDER = new Intl.Collator('en');

/**
 * Evaluation order, then name (case-insensitive), then id — as CAS's AbstractRegisteredService.compareTo.
 * The one order of every ServiceRegistry: each store lists through it, none sorts by its own rules.
 */
export function compareServices(a: RegisteredService, b: RegisteredService): number {
  return (
    a.evaluationOrder - b.evaluationOrder ||
    NAME_ORDER.compare(a.name.toLowerCase(), b.name.toLowerCase()) ||
    a.id - b.id
  );
}
