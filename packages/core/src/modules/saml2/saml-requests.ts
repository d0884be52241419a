import { InvalidRequestError } from '../../domain/errors.js';
import type { RequestedAuthnContext } from './authn-context.js';
import { STATUS, type SamlBinding, type SamlStatusCode } from './saml-names.js';

/** The NameIDPolicy of an AuthnRequest (SAML Core §3.4.1.1). */
export interface NameIdPolicy {
  readonly format?: string;
  readonly spNameQualifier?: string;
  readonly allowCreate?: boolean;
}

/** An AuthnRequest as the IdP reads it, from the part its signature covers when it is signed. */
export interface AuthnRequestMessage {
  readonly id: string;
  /** Epoch ms. */
  readonly issueInstant: number;
  readonly issuer: string;
  readonly destination?: string;
  readonly assertionConsumerServiceUrl?: string;
  readonly assertionConsumerServiceIndex?: number;
  readonly protocolBinding?: string;
  readonly nameIdPolicy?: NameIdPolicy;
  readonly forceAuthn: boolean;
  readonly isPassive: boolean;
  /** The classes of RequestedAuthnContext, and how they compare (`exact` when the request names none). */
  readonly requestedAuthnContext?: RequestedAuthnContext;
}

/** A NameID as a LogoutRequest names its user (SAML Core §2.2.3). */
export interface NameIdValue {
  readonly value: string;
  readonly format?: string;
  readonly nameQualifier?: string;
  readonly spNameQualifier?: string;
}

/** A LogoutRequest as the IdP or an SP reads it. */
export interface LogoutRequestMessage {
  readonly id: string;
  readonly issueInstant: number;
  readonly issuer: string;
  readonly destination?: string;
  readonly nameId: NameIdValue;
  readonly sessionIndexes: readonly string[];
  /** Epoch ms (`NotOnOrAfter`), if it says. */
  readonly notOnOrAfter?: number;
}

/** A LogoutResponse (a StatusResponseType, SAML Core §3.2.2). */
export interface LogoutResponseMessage {
  readonly id: string;
  readonly issueInstant: number;
  readonly issuer: string;
  readonly destination?: string;
  readonly inResponseTo?: string;
  readonly status: string;
  readonly subStatus?: string;
}

/** How a message reached the IdP, and whether its signature was checked (by either binding's means). */
export interface ReceivedMessage<Message> {
  readonly message: Message;
  readonly binding: SamlBinding;
  readonly relayState?: string;
  /** The message was signed and its signature verified against the SP's metadata. */
  readonly signed: boolean;
}

/**
 * A SAML request the IdP refuses. `status` is what a SAML answer says (Requester: the request is at
 * fault; with `subStatus` when SAML names the reason); `reason` says why, safe to show and to log (no
 * message content beyond its ids and issuer). Whether the SP gets a SAML answer or the browser an
 * error page is the route's decision: only an SP that is known, whose request was authenticated as
 * its metadata asks and whose answer address its metadata lists is ever answered.
 */
export class SamlRequestRefusedError extends InvalidRequestError {
  constructor(
    readonly reason: string,
    readonly status: SamlStatusCode = STATUS.requester,
    readonly subStatus?: SamlStatusCode,
  ) {
    super(reason);
  }
}

/**
 * An IssueInstant is accepted from `maxAgeSeconds` + `skewSeconds` in the past to `skewSeconds` in the
 * future: an old request is a replay or a browser left standing, a future one a wrong clock.
 */
export function checkIssueInstant(issueInstant: number, now: number, skewSeconds: number, maxAgeSeconds: number): void {
  if (issueInstant > now + skewSeconds * 1000) {
    throw new SamlRequestRefusedError(`IssueInstant ${new Date(issueInstant).toISOString()} is in the future (more than ${skewSeconds} s ahead of this server's clock)`, STATUS.requester, STATUS.requestDenied);
  }
  if (issueInstant < now - (maxAgeSeconds + skewSeconds) * 1000) {
    throw new SamlRequestRefusedError(`IssueInstant ${new Date(issueInstant).toISOString()} is too old (more than ${maxAgeSeconds + skewSeconds} s ago)`, STATUS.requester, STATUS.requestDenied);
  }
}

/**
 * A request's Destination, when it names one, must be the endpoint that received it (SAML Bindings
 * §3.4.5.2, §3.5.5.2); a signed request must name one, as the binding requires.
 */
export function checkDestination(destination: string | undefined, receivedAt: string, signed: boolean): void {
  if (destination === undefined) {
    if (signed) throw new SamlRequestRefusedError(`A signed request must name its Destination (${receivedAt})`);
    return;
  }
  if (destination !== receivedAt) throw new SamlRequestRefusedError(`Destination ${destination} is not this endpoint (${receivedAt})`);
}
