import type { Authentication } from '../../domain/authentication/authentication.js';
import type { AttributeMap } from '../../domain/authentication/principal.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { RegisteredService } from '../../domain/registry/registered-service.js';
import { compileFullMatch } from '../../domain/registry/service-matcher.js';
import type { Clock } from '../../ports/clock.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { RelyingPartyAccess } from '../../use-cases/relying-party-access.js';
import { effectiveConsentPolicy, type ConsentPolicy } from '../../service-policies/consent-policy.js';
import { addReminder, agreedTo, type ConsentDecisions, type ReminderOption, type ReminderTimeUnit } from './consent-decisions.js';
import type { ConsentDeniedEvent, ConsentGivenEvent } from './events.js';

/** The server's consent settings (`consent.*`), as CAS's `cas.consent.core.*`. */
export interface ConsentSettings {
  /** Ask for services whose consent policy is UNDEFINED (or absent). */
  readonly active: boolean;
  readonly reminder: number;
  readonly reminderTimeUnit: ReminderTimeUnit;
  /** Attributes never asked about, for any service. */
  readonly excludedAttributes: readonly string[];
}

/** A browser's ticket a consent is asked about. */
export interface ConsentRequest {
  readonly authentication: Authentication;
  readonly service: RegisteredService;
  /**
   * The service URL the ticket would be issued for. A decision is kept for the URL the relying party's
   * policies know it by (this one; for a module's own URL, its party's: an SP's entity id), as CAS keeps it.
   */
  readonly url: string;
}

/**
 * Consent to attribute release, as CAS's consent engine: before a browser's service ticket, the user
 * agrees to the attributes the service will receive (its release policy's, less those its consent
 * policy leaves out), and the decision is kept until its reminder, or until the attributes change as
 * far as its option looks.
 */
export class AttributeConsent {
  constructor(
    private readonly decisions: ConsentDecisions,
    /**
     * The relying-party path: what the service receives, as a validation would release it (without the
     * authentication's own attributes), and the URL its policies know it by, which decisions are kept for.
     */
    private readonly parties: Pick<RelyingPartyAccess, 'release' | 'policyUrl'>,
    private readonly clock: Clock,
    private readonly events: EventSink,
    private readonly settings: ConsentSettings,
  ) {}

  /** Whether the service's consent policy (or the server's default) asks at all; cheap: no store, no release. */
  applies(request: Pick<ConsentRequest, 'service' | 'url'>): boolean {
    const policy = effectiveConsentPolicy(request.service.attributeRelease);
    if (policy.status === 'FALSE' || (policy.status === 'UNDEFINED' && !this.settings.active)) return false;
    return !excludesService(policy, request.url);
  }

  /** The attributes the user is asked about: what the service receives of the principal, less what its consent policy and the settings leave out. */
  async consentable(request: ConsentRequest): Promise<AttributeMap> {
    const { service, url, authentication } = request;
    const { attributes: released } = await this.parties.release({ service, url, principal: authentication.principal });
    const policy = effectiveConsentPolicy(service.attributeRelease);
    const included = policy.includeOnlyAttributes === undefined ? undefined : new Set(policy.includeOnlyAttributes);
    const excluded = new Set([...(policy.excludedAttributes ?? []), ...this.settings.excludedAttributes]);
    return Object.fromEntries(Object.entries(released).filter(([name]) => (included === undefined || included.has(name)) && !excluded.has(name)));
  }

  /**
   * Whether the user must be asked before this ticket: the policy asks, some attribute is released to
   * ask about, and no decision counts (none, ALWAYS, the attributes changed, or its reminder is due).
   */
  async required(request: ConsentRequest): Promise<boolean> {
    if (!this.applies(request)) return false;
    const party = await this.asItsPoliciesKnowIt(request);
    const attributes = await this.consentable(party);
    if (Object.keys(attributes).length === 0) return false;
    const decision = await this.decisions.find(party.authentication.principal.id, party.url);
    if (decision === undefined || !agreedTo(decision, attributes)) return true;
    return this.clock.now() >= addReminder(decision.createdAt, decision.reminder, decision.reminderTimeUnit);
  }

  /** The user agreed, with this option: the decision is kept (with the server's reminder) and reported. */
  async give(request: ConsentRequest, option: ReminderOption, origin?: RequestOrigin): Promise<void> {
    const party = await this.asItsPoliciesKnowIt(request);
    const attributes = await this.consentable(party);
    const principal = party.authentication.principal.id;
    const service = party.url;
    const decision = await this.decisions.decide(
      { principal, service, createdAt: this.clock.now(), option, reminder: this.settings.reminder, reminderTimeUnit: this.settings.reminderTimeUnit },
      attributes,
    );
    this.events.emit({ type: 'consent.given', principal, service, option, attributes: decision.attributeNames } satisfies ConsentGivenEvent, origin);
  }

  /** The user refused: nothing is kept (the next ticket asks again), and it is reported. */
  async deny(request: ConsentRequest, origin?: RequestOrigin): Promise<void> {
    const service = await this.parties.policyUrl(request.url);
    this.events.emit({ type: 'consent.denied', principal: request.authentication.principal.id, service } satisfies ConsentDeniedEvent, origin);
  }

  /**
   * The request for the URL its relying party's policies know it by, found once (a module's own URL is
   * looked up in its store): releasing for that URL answers as for the module's, and decisions are kept for it.
   */
  private async asItsPoliciesKnowIt(request: ConsentRequest): Promise<ConsentRequest> {
    return { ...request, url: await this.parties.policyUrl(request.url) };
  }
}

/** Whether the URL matches one of the policy's excluded service patterns (whole). */
function excludesService(policy: ConsentPolicy, url: string): boolean {
  return (policy.excludedServices ?? []).some((pattern) => compileFullMatch(pattern)?.test(url) === true);
}
