import type { CertificateSource, CredentialType } from './authentication/credential.js';
import type { CasFailureCode } from './errors.js';
import type { TicketKind } from './tickets/ticket.js';

/**
 * Where the request behind a use case comes from, as the adapter that received it saw it (Apereo
 * CAS's ClientInfo). Reported beside every event the request causes, for the audit trail.
 */
export interface RequestOrigin {
  /** The client's address, e.g. the TCP peer or, behind a trusted proxy, the address it reports. */
  readonly clientAddress: string;
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
  | 'CALLBACK_NOT_HTTPS';

/** Why a proxy callback did not take its PGT: an answer other than 200, none in time, none at all, or a TLS peer not trusted. */
export type ProxyCallbackFailure = 'status' | 'timeout' | 'unreachable' | 'certificate';

/** Why a service registration was refused. */
export type ServiceRefusalReason =
  /** The form variant's TGT is unknown or expired (404). */
  | 'TGT_NOT_FOUND'
  /** The principal lacks `registration.requiredAttribute` (403). */
  | 'MISSING_REQUIRED_ATTRIBUTE'
  /** The definition is invalid (400); the event names the field. */
  | 'INVALID_SERVICE_DEFINITION';

/**
 * What happened, reported through the EventSink. Ticket ids appear only as fingerprints
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
      /** A throttle key (client IP + username) reached the failure threshold and is locked. */
      readonly type: 'authentication.throttled';
      readonly key: string;
      /** The lower-cased username of the key, when the requests named one. */
      readonly username?: string;
      readonly lockSeconds: number;
      readonly failures: number;
    }
  | {
      /** A TOTP code, or an older one, was presented again (ASVS 2.8.5: refused and logged). */
      readonly type: 'otp.reused';
      readonly username: string;
    }
  | {
      /**
       * A certificate in a request was left out of its credentials: a form or header certificate from
       * a peer that is not a trusted proxy (anyone could have written it), or one that cannot be read.
       */
      readonly type: 'x509.certificate.ignored';
      readonly source: CertificateSource;
      readonly reason: 'untrusted peer' | 'unreadable';
      /** The TCP peer address the request came from. */
      readonly peer: string;
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
  | {
      /** A service registration refused once its caller was identified (by credentials or a TGT). */
      readonly type: 'service.refused';
      readonly reason: ServiceRefusalReason;
      /** Who tried; absent for an unknown TGT. */
      readonly principal?: string;
      /** The form variant: the fingerprint of the TGT presented. */
      readonly tgt?: string;
      /** INVALID_SERVICE_DEFINITION: the field at fault, as the answer names it. */
      readonly field?: string;
    }
  | {
      /** The login form came back without a token this browser may use: missing, forged, expired or used before. */
      readonly type: 'login.token.refused';
      readonly reason: 'missing' | 'invalid' | 'expired' | 'reused';
    }
  | {
      /** A service opted in to single logout accepted the logout request of one of its sessions. */
      readonly type: 'logout.request.delivered';
      /** The service URL the session's ticket was issued for. */
      readonly service: string;
      /** The fingerprint of that ticket (the request's SessionIndex). */
      readonly ticket: string;
      readonly principal: string;
      /** `logout` (the session was logged out) or `expiry` (the TGT expired). */
      readonly trigger: 'logout' | 'expiry';
      readonly attempts: number;
    }
  | {
      /** Every attempt to deliver a logout request failed; the service's session may live on. */
      readonly type: 'logout.request.failed';
      readonly service: string;
      readonly ticket: string;
      readonly principal: string;
      readonly trigger: 'logout' | 'expiry';
      readonly attempts: number;
      /** The last attempt's failure: `HTTP <status>`, `timeout` or `unreachable`. */
      readonly reason: string;
    }
  | {
      /**
       * A login session had as many single-logout records as it may keep (`login.singleLogout.maxPerSession`)
       * when a service validated another ticket: its oldest record was dropped, so that service will not
       * be told when the session ends.
       */
      readonly type: 'logout.request.dropped';
      /** The service URL of the dropped record's ticket. */
      readonly service: string;
      /** The fingerprint of that ticket. */
      readonly ticket: string;
      readonly principal: string;
      /** How many records a session keeps. */
      readonly limit: number;
    }
  | {
      /**
       * The oidc module's provider: a browser was sent back to an OpenID Connect client with a code
       * (`oidc.authorized`), a client got tokens at the token endpoint (`oidc.token.issued`, by grant type).
       */
      readonly type: 'oidc.authorized' | 'oidc.token.issued';
      readonly client: string;
      readonly principal?: string;
      readonly grantType?: string;
    }
  | {
      /** The provider refused an authorization or token request: its OAuth error code (`invalid_grant`, `invalid_client`, ...). */
      readonly type: 'oidc.refused';
      readonly client?: string;
      readonly request: 'authorization' | 'token';
      readonly error: string;
    }
  | {
      /**
       * An OpenID Connect session ended (`oidc.logout`: RP-initiated, or with the TGT of its login
       * session), and whether a client that registered a back-channel logout URI was told.
       */
      readonly type: 'oidc.logout' | 'oidc.backchannel.delivered' | 'oidc.backchannel.failed';
      readonly principal?: string;
      readonly client?: string;
    }
  | {
      /** A proxy callback did not take its PGT (CAS protocol 3.0 §2.5.4): the validation answers without one. */
      readonly type: 'proxy.callback.failed';
      /** The pgtUrl as the validation request gave it, never with the ticket added. */
      readonly proxy: string;
      /** The service URL of the validated ticket: the would-be proxy. */
      readonly service: string;
      readonly principal: string;
      /** The fingerprint of the validated ticket. */
      readonly ticket: string;
      readonly reason: ProxyCallbackFailure;
      /** `status`: the HTTP status the callback answered. */
      readonly status?: number;
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
