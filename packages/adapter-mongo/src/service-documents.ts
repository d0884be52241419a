import {
  storedReleasePolicy,
  type AccessStrategy,
  type AttributeMap,
  type ExpirationPolicy,
  type LogoutType,
  type MultifactorPolicy,
  type ProxyPolicy,
  type RegisteredService,
  type ServicePolicy,
  type SingleSignOnParticipation,
  type ProxyGrantingTicketExpiration,
  type TicketGrantingTicketExpiration,
  type UseLimitedTicketExpiration,
} from '@tessera/core';

/** A registered service as stored, keyed by its id. */
export interface ServiceDocument {
  _id: number;
  type: string;
  name: string;
  serviceId: string;
  description?: string;
  logo?: string;
  informationUrl?: string;
  privacyUrl?: string;
  evaluationOrder: number;
  accessStrategy: AccessStrategy;
  /** A policy as data; the previous versions' `{ kind }` form is read as the policy it meant. */
  attributeRelease: ServicePolicy;
  usernameProvider?: ServicePolicy;
  properties: AttributeMap;
  logoutType?: LogoutType;
  logoutUrl?: string;
  proxyPolicy?: ProxyPolicy;
  expirationPolicy?: ExpirationPolicy;
  multifactorPolicy?: MultifactorPolicy;
  singleSignOnParticipation?: SingleSignOnParticipation;
  supportedProtocols?: readonly string[];
  ticketGrantingTicketExpiration?: TicketGrantingTicketExpiration;
  serviceTicketExpiration?: UseLimitedTicketExpiration;
  proxyTicketExpiration?: UseLimitedTicketExpiration;
  proxyGrantingTicketExpiration?: ProxyGrantingTicketExpiration;
  /** The modules' data, each under its data key (a word, so a plain field name here), kept as it is. */
  moduleData?: Readonly<Record<string, unknown>>;
}

export function toServiceDocument(service: RegisteredService): ServiceDocument {
  const { id, description, ...rest } = service;
  return { _id: id, ...rest, ...(description === undefined ? {} : { description }) };
}

/**
 * Field by field: `_id` stays in the database, an absent description stays absent, and fields other
 * versions wrote (the `sortName` of earlier ones) are left out.
 */
export function fromServiceDocument(document: ServiceDocument): RegisteredService {
  return {
    id: document._id,
    type: document.type,
    name: document.name,
    serviceId: document.serviceId,
    ...(document.description === undefined ? {} : { description: document.description }),
    ...(document.logo === undefined ? {} : { logo: document.logo }),
    ...(document.informationUrl === undefined ? {} : { informationUrl: document.informationUrl }),
    ...(document.privacyUrl === undefined ? {} : { privacyUrl: document.privacyUrl }),
    evaluationOrder: document.evaluationOrder,
    accessStrategy: document.accessStrategy,
    attributeRelease: storedReleasePolicy(document.attributeRelease),
    ...(document.usernameProvider === undefined ? {} : { usernameProvider: document.usernameProvider }),
    properties: document.properties,
    ...(document.logoutType === undefined ? {} : { logoutType: document.logoutType }),
    ...(document.logoutUrl === undefined ? {} : { logoutUrl: document.logoutUrl }),
    ...(document.proxyPolicy === undefined ? {} : { proxyPolicy: document.proxyPolicy }),
    ...(document.expirationPolicy === undefined ? {} : { expirationPolicy: document.expirationPolicy }),
    ...(document.multifactorPolicy === undefined ? {} : { multifactorPolicy: document.multifactorPolicy }),
    ...(document.singleSignOnParticipation === undefined ? {} : { singleSignOnParticipation: document.singleSignOnParticipation }),
    ...(document.supportedProtocols === undefined ? {} : { supportedProtocols: document.supportedProtocols }),
    ...(document.ticketGrantingTicketExpiration === undefined ? {} : { ticketGrantingTicketExpiration: document.ticketGrantingTicketExpiration }),
    ...(document.serviceTicketExpiration === undefined ? {} : { serviceTicketExpiration: document.serviceTicketExpiration }),
    ...(document.proxyTicketExpiration === undefined ? {} : { proxyTicketExpiration: document.proxyTicketExpiration }),
    ...(document.proxyGrantingTicketExpiration === undefined ? {} : { proxyGrantingTicketExpiration: document.proxyGrantingTicketExpiration }),
    ...(document.moduleData === undefined ? {} : { moduleData: document.moduleData }),
  };
}
