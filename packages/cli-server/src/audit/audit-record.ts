import { isDomainEvent, type DomainEvent, type ModuleEvent } from '@tessera/core';
import type { AuditCategory, ModuleEventDeclaration, ModuleEvents } from '../events/module-events.js';

export type { AuditCategory } from '../events/module-events.js';

/** The fields every audit record has, before the request's origin and the event's details. */
export interface AuditRecord {
  readonly audit: AuditCategory;
  /** The event's type, the same name the application log and the metrics use. */
  readonly action: string;
  readonly outcome: 'success' | 'failure';
  /** The principal or the username as sent; absent when nobody is known (an unknown ticket). */
  readonly who: string | undefined;
  /** The event's other fields: ticket fingerprints, service URLs, CAS codes, reasons and refusal codes. */
  readonly details: Readonly<Record<string, unknown>>;
}

/**
 * The audit record of an event, or undefined for events that are not an action of a client
 * (`server.error`, `readiness.failed` and `request.unreadable`, which names nobody, belong to the
 * application log, as does a module's event declared without `audit`). A module's event is recorded
 * as its declaration says (`modules`). Events carry no secrets: ticket ids are fingerprints already,
 * and no event has a password.
 */
export function auditRecordOf(event: DomainEvent | ModuleEvent, modules: ModuleEvents): AuditRecord | undefined {
  if (!isDomainEvent(event)) return moduleAuditRecord(event, modules.of(event.type));
  switch (event.type) {
    case 'authentication.succeeded': {
      const { type, principal, ...details } = event;
      return { audit: 'authentication', action: type, outcome: 'success', who: principal, details };
    }
    case 'authentication.failed': {
      const { type, credentialIds, ...details } = event;
      return { audit: 'authentication', action: type, outcome: 'failure', who: oneName(credentialIds), details };
    }
    case 'authentication.refused': {
      // Good credentials, but the service named refuses the principal (POST /v1/users).
      const { type, principal, ...details } = event;
      return { audit: 'authentication', action: type, outcome: 'failure', who: principal, details };
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
    case 'ticket.secondFactorSkipped': {
      // The ticket was issued (ticket.created) without the factor the service asks: its failure mode let it.
      const { type, principal, ...details } = event;
      return { audit: 'ticket', action: type, outcome: 'success', who: principal, details };
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
    // A warning about a definition just saved (service.saved is its audit line), for the log.
    case 'service.host.unpinned':
    case 'server.error':
    case 'readiness.failed':
    case 'request.unreadable':
      return undefined;
  }
}

/** The record a module declared for its event: `who` taken out of the details, with the fields it omits. */
function moduleAuditRecord(event: ModuleEvent, declaration: ModuleEventDeclaration | undefined): AuditRecord | undefined {
  if (declaration?.audit === undefined) return undefined;
  const { audit } = declaration;
  const left = fieldsLeftOut(declaration);
  const details: Record<string, unknown> = {};
  // Assigned, not spread: a `__proto__` field (no declared event has one) would set the prototype, so it is left out.
  for (const field of Object.keys(event)) if (!left.has(field) && field !== '__proto__') details[field] = event[field];
  const who = audit.who === undefined ? undefined : event[audit.who];
  return { audit: audit.category, action: event.type, outcome: audit.outcome, who: typeof who === 'string' ? who : undefined, details };
}

/** The fields of a declared event its audit line leaves out (its type, who did it, those it omits), worked out once per declaration: module events come with most requests. */
const LEFT_OUT = new WeakMap<ModuleEventDeclaration, ReadonlySet<string>>();

function fieldsLeftOut(declaration: ModuleEventDeclaration): ReadonlySet<string> {
  let left = LEFT_OUT.get(declaration);
  if (left === undefined) {
    const audit = declaration.audit;
    LEFT_OUT.set(declaration, (left = new Set<string>(['type', ...(audit?.who === undefined ? [] : [audit.who]), ...(audit?.omit ?? [])])));
  }
  return left;
}

/** The credentials' identifiers, each once: a username and its one-time password name one person. */
function oneName(ids: readonly string[]): string | undefined {
  const distinct = [...new Set(ids)];
  return distinct.length === 0 ? undefined : distinct.join(',');
}
