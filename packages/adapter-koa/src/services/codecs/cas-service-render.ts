import type { AttributeMap, ProxyPolicy, RegisteredService } from '@tessera/core';
import { accessStrategyJson } from './access-strategy-codec.js';
import { javaSet } from './java-collections.js';
import { multifactorPolicyJson } from './multifactor-policy-codec.js';
import type { PolicySlots } from './policy-slots.js';
import { renderSingleSignOnParticipation } from './sso-participation-codec.js';
import { supportedProtocolsJson } from './supported-protocols-codec.js';
import { ticketExpirationJson } from './ticket-expiration-codec.js';

const CAS = 'org.apereo.cas.services';

/**
 * A stored definition in Apereo CAS's JSON format, as parseServiceDefinition reads it: `@class`
 * keys and `["java.util.HashSet", [...]]` collections, so it loads unchanged in CAS or tessera and
 * round-trips (parse(render(s)) equals s). Its policies are written by the codec parts of their
 * classes, the modules' data on it by the modules' parts (its type's, the sections').
 */
export function toCasServiceJson(service: RegisteredService, policies: PolicySlots): Record<string, unknown> {
  const { accessStrategy: moduleStrategyKeys, ...moduleKeys } = policies.modules.render(service);
  return {
    '@class': service.type,
    id: service.id,
    name: service.name,
    serviceId: service.serviceId,
    ...(service.description === undefined ? {} : { description: service.description }),
    ...(service.logo === undefined ? {} : { logo: service.logo }),
    ...(service.informationUrl === undefined ? {} : { informationUrl: service.informationUrl }),
    ...(service.privacyUrl === undefined ? {} : { privacyUrl: service.privacyUrl }),
    evaluationOrder: service.evaluationOrder,
    accessStrategy: { ...accessStrategyJson(service.accessStrategy), ...(moduleStrategyKeys as Record<string, unknown> | undefined) },
    attributeReleasePolicy: policies.renderReleasePolicy(service.attributeRelease),
    ...(service.usernameProvider === undefined ? {} : { usernameAttributeProvider: policies.renderUsernameProvider(service.usernameProvider) }),
    properties: javaMap(service.properties, (values) => ({ '@class': `${CAS}.DefaultRegisteredServiceProperty`, values: javaSet(values) })),
    ...(service.logoutType === undefined ? {} : { logoutType: service.logoutType }),
    ...(service.logoutUrl === undefined ? {} : { logoutUrl: service.logoutUrl }),
    ...(service.proxyPolicy === undefined ? {} : { proxyPolicy: proxyPolicyJson(service.proxyPolicy) }),
    ...(service.expirationPolicy === undefined ? {} : { expirationPolicy: { '@class': `${CAS}.DefaultRegisteredServiceExpirationPolicy`, ...service.expirationPolicy } }),
    ...(service.multifactorPolicy === undefined ? {} : { multifactorPolicy: multifactorPolicyJson(service.multifactorPolicy) }),
    ...(service.singleSignOnParticipation === undefined ? {} : { singleSignOnParticipationPolicy: renderSingleSignOnParticipation(service.singleSignOnParticipation) }),
    ...supportedProtocolsJson(service.supportedProtocols),
    ...ticketExpirationJson(service),
    ...moduleKeys,
  };
}

/** As CAS writes it: the options only when they are not their default. */
function proxyPolicyJson(policy: ProxyPolicy): Record<string, unknown> {
  if (policy.kind === 'refuse') return { '@class': `${CAS}.RefuseRegisteredServiceProxyPolicy` };
  return {
    '@class': `${CAS}.RegexMatchingRegisteredServiceProxyPolicy`,
    ...(policy.pattern !== undefined && { pattern: policy.pattern }),
    ...(policy.useServiceId && { useServiceId: true }),
    ...(policy.exactMatch && { exactMatch: true }),
  };
}

function javaMap(map: AttributeMap, value: (values: readonly string[]) => unknown): Record<string, unknown> {
  const json: Record<string, unknown> = { '@class': 'java.util.HashMap' };
  for (const [name, values] of Object.entries(map)) json[name] = value(values);
  return json;
}
