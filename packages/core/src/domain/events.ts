import type { CredentialType } from './authentication/credential.js';
import type { CasFailureCode } from './errors.js';
import type { TicketKind } from './tickets/ticket.js';

/**
 * Where the request behind a use case comes from, as the adapter that received it saw it (Apereo
 * CAS's ClientInfo). Reported beside every event the request causes, for the audit trail.
 */
export interface RequestOrigin {
  /**
   * The client's address, e.g. the TCP peer or, behind a trusted proxy, the address it reports. Limits
   * per client count by its `clientAddressGroup` (an IPv6 address by its /64).
   */
  readonly clientAddress: string;
  /** The request's `User-Agent`, for the access strategies that read it; never reported. */
  readonly userAgent?: string;
  /** Random, shared by every event of one request. */
  readonly requestId: string;
  /** What was asked, e.g. `POST /cas/v1/tickets/:tgt`; never a path, which may hold ticket ids. */
  readonly endpoint?: string;
}

/** Why a registered service refuses a request (ServiceAccess): stable codes, for alerts and metrics. */
export type ServiceAccessRefusal =
  /** No enabled definition matches the service URL (403). */
  | 'SERVICE_NOT_AUTHORIZED'
  /** The principal lacks the service's required attributes (401). */
  | 'PRINCIPAL_NOT_ALLOWED';

/** Why no ticket was issued to a request that got past its parameters. */
export type TicketRefusalReason =
  | ServiceAccessRefusal
  /** The TGT is unknown, expired or not a TGT (404). */
  | 'TGT_NOT_FOUND'
  /** The service has `ssoEnabled: false` and the request did not renew the login (401). */
  | 'SSO_NOT_ALLOWED'
  /** `renew=true` without credentials (400). */
  | 'RENEW_WITHOUT_CREDENTIALS'
  /** The renewed credentials identify another principal than the TGT's (401). */
  | 'RENEW_PRINCIPAL_MISMATCH'
  /** A PT request: the PGT is unknown, expired or not a PGT (INVALID_TICKET). */
  | 'PGT_NOT_FOUND'
  /** A PGT for a service whose proxy policy does not allow the pgtUrl; a PT for a proxy no longer allowed to (UNAUTHORIZED_SERVICE). */
  | 'PROXY_NOT_ALLOWED'
  /** A PGT whose pgtUrl is no absolute https URL. */
  | 'CALLBACK_NOT_HTTPS'
  /** The service's `multifactorPolicy` asks a second factor the login did not prove (401). */
  | 'SECOND_FACTOR_REQUIRED'
  /** The service's `multifactorPolicy` asks a second factor the user has not set up, and its failure mode is CLOSED (401). */
  | 'SECOND_FACTOR_UNAVAILABLE';

/**
 * What happened in core, reported through the EventSink. A module's events are its own (ModuleEvent),
 * declared with their log level, audit record and counters in the module's declaration. Ticket ids appear only as fingerprints
 * (ticketFingerprint) and secrets never appear: events are logged and counted as they are.
 */
export type DomainEvent =
  | {
      readonly type: 'authentication.succeeded';
      readonly principal: string;
      readonly handlers: readonly string[];
      readonly credentialTypes: readonly CredentialType[];
    }
  | {
      readonly type: 'authentication.failed';
      readonly credentialIds: readonly string[];
      readonly credentialTypes: readonly CredentialType[];
      /** Every handler asked about a credential of the attempt, each once; empty when none supports them. */
      readonly handlers: readonly string[];
      readonly reasons: readonly string[];
    }
  | {
      readonly type: 'ticket.created';
      readonly kind: TicketKind;
      readonly ticket: string;
      readonly principal: string;
      readonly service?: string;
      /** PGT: the callback URL it was delivered to; PT: that of the proxy whose PGT granted it. */
      readonly proxy?: string;
    }
  | {
      /** No ticket for a request past its parameters: its service, its TGT or its renewal refused it. */
      readonly type: 'ticket.refused';
      readonly kind: TicketKind;
      readonly reason: TicketRefusalReason;
      /** The service URL asked for, when the request named one. */
      readonly service?: string;
      /** Who asked: the authenticated principal, or the TGT's; absent for an unknown TGT. */
      readonly principal?: string;
      /** ST requests: the fingerprint of the TGT presented. */
      readonly tgt?: string;
      /** PGT requests: the fingerprint of the ticket validated; PT requests: that of the PGT presented. */
      readonly ticket?: string;
      /** PGT requests: the pgtUrl asked for. */
      readonly proxy?: string;
    }
  | {
      /** POST /v1/users with a service: the credentials are good, but the service refuses the principal. */
      readonly type: 'authentication.refused';
      readonly principal: string;
      readonly service: string;
      readonly reason: ServiceAccessRefusal;
    }
  | {
      /** A service's `multifactorPolicy` asked a second factor the user has not set up; its failure mode (OPEN, PHANTOM) let the ticket through without it. */
      readonly type: 'ticket.secondFactorSkipped';
      readonly service: string;
      readonly principal: string;
      readonly failureMode: string;
    }
  | { readonly type: 'ticket.validated'; readonly ticket: string; readonly principal: string; readonly service: string }
  | {
      readonly type: 'ticket.validation.failed';
      readonly ticket: string;
      readonly code: CasFailureCode;
      readonly service: string;
      /** Whose ticket it was, when the ticket and its TGT were found. */
      readonly principal?: string;
    }
  | {
      readonly type: 'ticket.destroyed';
      readonly ticket: string;
      readonly descendants: number;
      /** The TGT's principal, when the destroyed ticket was a live TGT. */
      readonly principal?: string;
    }
  | {
      readonly type: 'service.saved';
      readonly serviceId: number;
      readonly name: string;
      /** Whether a definition with the same id was stored before. */
      readonly replaced: boolean;
      /** Who registered it over REST; absent for the `services import` command. */
      readonly principal?: string;
    }
  | {
      /**
       * A service was saved (over REST or by `services import`) whose serviceId or proxy policy pattern
       * does not pin its host (host-pinning.ts): it is kept as Apereo CAS would keep it, and reported.
       */
      readonly type: 'service.host.unpinned';
      readonly serviceId: number;
      readonly name: string;
      /** What is not pinned and how to pin it, one text per pattern. */
      readonly warnings: readonly string[];
    }
  | { readonly type: 'server.error'; readonly error: Error; readonly context: string }
  | {
      /**
       * The HTTP listener refused a connection's request before any route saw it: its bytes did not
       * parse, or it did not arrive in time. The client's fault, never a server error; nothing of the
       * bytes is kept, they may hold another request's password.
       */
      readonly type: 'request.unreadable';
      /** The listener's code: `HPE_*` from the HTTP parser, `ERR_HTTP_REQUEST_TIMEOUT` for a slow client. */
      readonly code: string;
      /** The TCP peer, when the connection still had one. */
      readonly peerAddress?: string;
    }
  | {
      /** A readiness check failed: `reason` is safe to show anyone, `error` (hosts, causes) is for the log. */
      readonly type: 'readiness.failed';
      readonly component: string;
      readonly reason: string;
      readonly error?: Error;
    };

export type DomainEventType = DomainEvent['type'];

/**
 * An event a module emits: its type (`<module>.<what>`, never a core event's) and its fields, declared
 * as a type in the module's core folder and, with its log level, audit record and counters, in the
 * module's declaration (docs/adding-a-module.md). The same rules as for DomainEvent: ticket ids only
 * as fingerprints, never a secret.
 */
export interface ModuleEvent {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** Every core event type, once: what tells a core event from a module's. */
const DOMAIN_EVENT_TYPES: Readonly<Record<DomainEventType, true>> = {
  'authentication.succeeded': true,
  'authentication.failed': true,
  'authentication.refused': true,
  'ticket.created': true,
  'ticket.refused': true,
  'ticket.secondFactorSkipped': true,
  'ticket.validated': true,
  'ticket.validation.failed': true,
  'ticket.destroyed': true,
  'service.saved': true,
  'service.host.unpinned': true,
  'server.error': true,
  'request.unreadable': true,
  'readiness.failed': true,
};

/** Whether a core event type (`ticket.created`) is this one's. */
export function isDomainEventType(type: string): type is DomainEventType {
  return Object.hasOwn(DOMAIN_EVENT_TYPES, type);
}

/** Whether the event is one of core's (DomainEvent) rather than a module's. */
export function isDomainEvent(event: DomainEvent | ModuleEvent): event is DomainEvent {
  return isDomainEventType(event.type);
}
