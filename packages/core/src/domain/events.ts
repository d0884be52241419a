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
  | { readonly type: 'server.error'; readonly error: Error; readonly context: string }
  | {
      /** A readiness check failed: `reason` is safe to show anyone, `error` (hosts, causes) is for the log. */
      readonly type: 'readiness.failed';
      readonly component: string;
      readonly reason: string;
      readonly error?: Error;
    };

export type DomainEventType = DomainEvent['type'];
