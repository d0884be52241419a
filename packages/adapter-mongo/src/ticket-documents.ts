import type { Authentication, ProxyGrantingTicket, ProxyTicket, ServiceTicket, Ticket, TicketGrantingTicket, ValidatableTicket } from '@tessera/core';

/** Authentication as stored: the time as a BSON Date, the rest as it is. */
export type AuthenticationDocument = Omit<Authentication, 'authenticatedAt'> & { authenticatedAt: Date };

export interface TgtDocument {
  _id: string;
  kind: 'TGT';
  authentication: AuthenticationDocument;
  createdAt: Date;
  hardExpiresAt: Date;
  expiresAt: Date;
  servicesGranted: number;
  /** Only when true: a session of a service's own lifetime, which never slides. */
  hardTimeout?: true;
}

export interface StDocument {
  _id: string;
  kind: 'ST';
  tgtId: string;
  service: string;
  fromNewLogin: boolean;
  authenticatedAt: Date;
  createdAt: Date;
  expiresAt: Date;
  /** Only for a ticket of more than one use: the validations it still takes. */
  usesLeft?: number;
}

export interface PgtDocument {
  _id: string;
  kind: 'PGT';
  tgtId: string;
  service: string;
  proxies: string[];
  createdAt: Date;
  expiresAt: Date;
}

export interface PtDocument {
  _id: string;
  kind: 'PT';
  tgtId: string;
  grantedBy: string;
  service: string;
  proxies: string[];
  authenticatedAt: Date;
  createdAt: Date;
  expiresAt: Date;
  usesLeft?: number;
}

/**
 * One `tickets` collection holds every kind; `expiresAt` carries the TTL index, and every kind but the
 * TGT names its session's TGT in `tgtId` (indexed), so a logout finds them all.
 */
export type TicketDocument = TgtDocument | StDocument | PgtDocument | PtDocument;

export function toAuthenticationDocument(authentication: Authentication): AuthenticationDocument {
  return { ...authentication, authenticatedAt: new Date(authentication.authenticatedAt) };
}

export function toTicketDocument(ticket: Ticket): TicketDocument {
  const times = { createdAt: new Date(ticket.createdAt), expiresAt: new Date(ticket.expiresAt) };
  switch (ticket.kind) {
    case 'TGT': {
      return {
        _id: ticket.id,
        kind: 'TGT',
        authentication: toAuthenticationDocument(ticket.authentication),
        hardExpiresAt: new Date(ticket.hardExpiresAt),
        servicesGranted: ticket.servicesGranted,
        ...(ticket.hardTimeout && { hardTimeout: true }),
        ...times,
      };
    }
    case 'ST': {
      const { id, kind, tgtId, service, fromNewLogin, authenticatedAt } = ticket;
      return { _id: id, kind, tgtId, service, fromNewLogin, authenticatedAt: new Date(authenticatedAt), ...times, ...(ticket.usesLeft !== undefined && { usesLeft: ticket.usesLeft }) };
    }
    case 'PGT': {
      const { id, kind, tgtId, service, proxies } = ticket;
      return { _id: id, kind, tgtId, service, proxies: [...proxies], ...times };
    }
    case 'PT': {
      const { id, kind, tgtId, grantedBy, service, proxies, authenticatedAt } = ticket;
      return { _id: id, kind, tgtId, grantedBy, service, proxies: [...proxies], authenticatedAt: new Date(authenticatedAt), ...times, ...(ticket.usesLeft !== undefined && { usesLeft: ticket.usesLeft }) };
    }
  }
}

/** Field by field, so neither `_id` nor anything a future version adds leaks into core. */
export function fromTicketDocument(document: TicketDocument): Ticket {
  switch (document.kind) {
    case 'TGT':
      return fromTgtDocument(document);
    case 'PGT':
      return fromPgtDocument(document);
    default:
      return fromValidatableDocument(document);
  }
}

export function fromTgtDocument(document: TgtDocument): TicketGrantingTicket {
  const { principal, credentials, successes, attributes, authenticatedAt } = document.authentication;
  return {
    kind: 'TGT',
    id: document._id,
    authentication: { principal, authenticatedAt: authenticatedAt.getTime(), credentials, successes, attributes },
    createdAt: document.createdAt.getTime(),
    hardExpiresAt: document.hardExpiresAt.getTime(),
    expiresAt: document.expiresAt.getTime(),
    servicesGranted: document.servicesGranted,
    ...(document.hardTimeout === true && { hardTimeout: true }),
  };
}

/** An ST or a PT, as consume returns them. */
export function fromValidatableDocument(document: StDocument | PtDocument): ValidatableTicket {
  return document.kind === 'ST' ? fromStDocument(document) : fromPtDocument(document);
}

/** What every ticket granted under a TGT has. */
function grantedFields(document: StDocument | PgtDocument | PtDocument) {
  return {
    id: document._id,
    tgtId: document.tgtId,
    service: document.service,
    createdAt: document.createdAt.getTime(),
    expiresAt: document.expiresAt.getTime(),
  };
}

function fromStDocument(document: StDocument): ServiceTicket {
  return {
    kind: 'ST',
    ...grantedFields(document),
    fromNewLogin: document.fromNewLogin,
    authenticatedAt: document.authenticatedAt.getTime(),
    ...(document.usesLeft !== undefined && { usesLeft: document.usesLeft }),
  };
}

function fromPgtDocument(document: PgtDocument): ProxyGrantingTicket {
  return { kind: 'PGT', ...grantedFields(document), proxies: [...document.proxies] };
}

function fromPtDocument(document: PtDocument): ProxyTicket {
  return {
    kind: 'PT',
    ...grantedFields(document),
    grantedBy: document.grantedBy,
    proxies: [...document.proxies],
    authenticatedAt: document.authenticatedAt.getTime(),
    ...(document.usesLeft !== undefined && { usesLeft: document.usesLeft }),
  };
}
