import type { Authentication, ServiceTicket, Ticket, TicketGrantingTicket } from '@tessera/core';

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
}

/** One `tickets` collection holds both kinds; `expiresAt` carries the TTL index. */
export type TicketDocument = TgtDocument | StDocument;

export function toTicketDocument(ticket: Ticket): TicketDocument {
  if (ticket.kind === 'ST') return stDocument(ticket);
  const { authentication } = ticket;
  return {
    _id: ticket.id,
    kind: 'TGT',
    authentication: { ...authentication, authenticatedAt: new Date(authentication.authenticatedAt) },
    createdAt: new Date(ticket.createdAt),
    hardExpiresAt: new Date(ticket.hardExpiresAt),
    expiresAt: new Date(ticket.expiresAt),
    servicesGranted: ticket.servicesGranted,
  };
}

function stDocument(st: ServiceTicket): StDocument {
  return {
    _id: st.id,
    kind: 'ST',
    tgtId: st.tgtId,
    service: st.service,
    fromNewLogin: st.fromNewLogin,
    authenticatedAt: new Date(st.authenticatedAt),
    createdAt: new Date(st.createdAt),
    expiresAt: new Date(st.expiresAt),
  };
}

/** Field by field, so neither `_id` nor anything a future version adds leaks into core. */
export function fromTicketDocument(document: TicketDocument): Ticket {
  return document.kind === 'ST' ? fromStDocument(document) : fromTgtDocument(document);
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
  };
}

export function fromStDocument(document: StDocument): ServiceTicket {
  return {
    kind: 'ST',
    id: document._id,
    tgtId: document.tgtId,
    service: document.service,
    fromNewLogin: document.fromNewLogin,
    authenticatedAt: document.authenticatedAt.getTime(),
    createdAt: document.createdAt.getTime(),
    expiresAt: document.expiresAt.getTime(),
  };
}
