import type { DomainEvent } from '@tessera/core';

/** What an audit record is about: the `audit` field, for filtering one kind of action. */
export type AuditCategory = 'authentication' | 'ticket' | 'validation' | 'logout' | 'service';

/** The fields every audit record has, before the request's origin and the event's details. */
export interface AuditRecord {
  readonly audit: AuditCategory;
  /** The domain event's type, the same name the application log and the metrics use. */
  readonly action: DomainEvent['type'];
  readonly outcome: 'success' | 'failure';
  /** The principal or the username as sent; absent when nobody is known (an unknown ticket). */
  readonly who: string | undefined;
  /** The event's other fields: ticket fingerprints, service URLs, CAS codes, reasons and refusal codes. */
  readonly details: Readonly<Record<string, unknown>>;
}

/**
 * The audit record of a domain event, or undefined for events that are not an action of a client
 * (`server.error`, `readiness.failed` and `request.unreadable`, which names nobody, belong to the application log). Events carry no secrets: ticket ids are
 * fingerprints already, and no event has a password.
 */
export function auditRecordOf(event: DomainEvent): AuditRecord | undefined {
  switch (event.type) {
    case 'authentication.succeeded': {
      const { type, principal, ...details } = event;
      return { audit: 'authentication', action: type, outcome: 'success', who: principal, details };
    }
    case 'authentication.failed': {
      const { type, credentialIds, ...details } = event;
      return { audit: 'authentication', action: type, outcome: 'failure', who: oneName(credentialIds), details };
    }
    case 'authentication.throttled': {
      // The key is the address and the username, both recorded on their own.
      const { type, username, key: _key, ...details } = event;
      return { audit: 'authentication', action: type, outcome: 'failure', who: username, details };
    }
    case 'authentication.refused': {
      // Good credentials, but the service named refuses the principal (POST /v1/users).
      const { type, principal, ...details } = event;
      return { audit: 'authentication', action: type, outcome: 'failure', who: principal, details };
    }
    case 'x509.certificate.ignored': {
      // A certificate nobody may vouch for here (an untrusted peer), or one that could not be read.
      const { type, ...details } = event;
      return { audit: 'authentication', action: type, outcome: 'failure', who: undefined, details };
    }
    case 'otp.reused': {
      const { type, username } = event;
      return { audit: 'authentication', action: type, outcome: 'failure', who: username, details: {} };
    }
    case 'ticket.created': {
      const { type, principal, ...details } = event;
      return { audit: 'ticket', action: type, outcome: 'success', who: principal, details };
    }
    case 'ticket.refused': {
      // No ticket after all: a service or TGT refused the request, often right after a successful login.
      const { type, principal, ...details } = event;
      return { audit: 'ticket', action: type, outcome: 'failure', who: principal, details };
    }
    case 'proxy.callback.failed': {
      // A validation asked for a PGT, and its proxy's callback did not take it: the service got none.
      const { type, principal, ...details } = event;
      return { audit: 'ticket', action: type, outcome: 'failure', who: principal, details };
    }
    case 'ticket.validated': {
      const { type, principal, ...details } = event;
      return { audit: 'validation', action: type, outcome: 'success', who: principal, details };
    }
    case 'ticket.validation.failed': {
      const { type, principal, ...details } = event;
      return { audit: 'validation', action: type, outcome: 'failure', who: principal, details };
    }
    case 'ticket.destroyed': {
      const { type, principal, ...details } = event;
      return { audit: 'logout', action: type, outcome: 'success', who: principal, details };
    }
    case 'service.saved': {
      const { type, principal, ...details } = event;
      return { audit: 'service', action: type, outcome: 'success', who: principal, details };
    }
    case 'service.refused': {
      const { type, principal, ...details } = event;
      return { audit: 'service', action: type, outcome: 'failure', who: principal, details };
    }
    case 'login.token.refused': {
      // A login form posted without a token of this browser: a forged cross-site post looks like this.
      const { type, ...details } = event;
      return { audit: 'authentication', action: type, outcome: 'failure', who: undefined, details };
    }
    case 'logout.request.delivered':
    case 'logout.request.failed': {
      // Single logout: whether a service was told that a session it took part in ended.
      const { type, principal, ...details } = event;
      return { audit: 'logout', action: type, outcome: type === 'logout.request.delivered' ? 'success' : 'failure', who: principal, details };
    }
    case 'logout.request.dropped': {
      // The session had too many services to tell: the oldest will not hear of its end.
      const { type, principal, ...details } = event;
      return { audit: 'logout', action: type, outcome: 'failure', who: principal, details };
    }
    case 'oidc.authorized':
    case 'oidc.token.issued': {
      // The OpenID Provider's tickets: a code, then tokens; never their values.
      const { type, principal, ...details } = event;
      return { audit: 'ticket', action: type, outcome: 'success', who: principal, details };
    }
    case 'oidc.refused': {
      const { type, ...details } = event;
      return { audit: 'ticket', action: type, outcome: 'failure', who: undefined, details };
    }
    case 'oidc.logout':
    case 'oidc.backchannel.delivered':
    case 'oidc.backchannel.failed': {
      const { type, principal, ...details } = event;
      return { audit: 'logout', action: type, outcome: type === 'oidc.backchannel.failed' ? 'failure' : 'success', who: principal, details };
    }
    // A warning about a definition just saved (service.saved is its audit line), for the log.
    case 'service.host.unpinned':
    case 'server.error':
    case 'readiness.failed':
    case 'request.unreadable':
      return undefined;
  }
}

/** The credentials' identifiers, each once: a username and its one-time password name one person. */
function oneName(ids: readonly string[]): string | undefined {
  const distinct = [...new Set(ids)];
  return distinct.length === 0 ? undefined : distinct.join(',');
}
