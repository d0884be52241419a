import type { AttributeMap, AttributeReleasePolicy, OidcClientDefinition, ProxyPolicy, RegisteredService } from '@tessera/core';

const CAS = 'org.apereo.cas.services';

/**
 * A stored definition in Apereo CAS's JSON format, as parseServiceDefinition reads it: `@class`
 * keys and `["java.util.HashSet", [...]]` collections, so it loads unchanged in CAS or tessera and
 * round-trips (parse(render(s)) equals s).
 */
export function toCasServiceJson(service: RegisteredService): Record<string, unknown> {
  return {
    '@class': service.type,
    id: service.id,
    name: service.name,
    serviceId: service.serviceId,
    ...(service.description === undefined ? {} : { description: service.description }),
    evaluationOrder: service.evaluationOrder,
    accessStrategy: {
      '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`,
      enabled: service.accessStrategy.enabled,
      ssoEnabled: service.accessStrategy.ssoEnabled,
      requiredAttributes: javaMap(service.accessStrategy.requiredAttributes, (values) => javaSet(values)),
    },
    attributeReleasePolicy: releasePolicyJson(service.attributeRelease),
    properties: javaMap(service.properties, (values) => ({ '@class': `${CAS}.DefaultRegisteredServiceProperty`, values: javaSet(values) })),
    ...(service.logoutType === undefined ? {} : { logoutType: service.logoutType }),
    ...(service.logoutUrl === undefined ? {} : { logoutUrl: service.logoutUrl }),
    ...(service.proxyPolicy === undefined ? {} : { proxyPolicy: proxyPolicyJson(service.proxyPolicy) }),
    ...(service.oidc === undefined ? {} : oidcClientJson(service.oidc)),
  };
}

function oidcClientJson(client: OidcClientDefinition): Record<string, unknown> {
  return {
    clientId: client.clientId,
    ...(client.clientSecret !== undefined && { clientSecret: client.clientSecret }),
    tokenEndpointAuthenticationMethod: client.tokenEndpointAuthenticationMethod,
    scopes: javaSet(client.scopes),
    supportedGrantTypes: javaSet(client.supportedGrantTypes),
    supportedResponseTypes: javaSet(client.supportedResponseTypes),
    bypassApprovalPrompt: client.bypassApprovalPrompt,
    ...(client.jwks !== undefined && { jwks: client.jwks }),
    ...(client.idTokenSigningAlg !== undefined && { idTokenSigningAlg: client.idTokenSigningAlg }),
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

function releasePolicyJson(policy: AttributeReleasePolicy): Record<string, unknown> {
  switch (policy.kind) {
    case 'none':
      return { '@class': `${CAS}.DenyAllAttributeReleasePolicy` };
    case 'all':
      return { '@class': `${CAS}.ReturnAllAttributeReleasePolicy` };
    case 'allowed':
      return { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', [...policy.names]] };
  }
}

function javaMap(map: AttributeMap, value: (values: readonly string[]) => unknown): Record<string, unknown> {
  const json: Record<string, unknown> = { '@class': 'java.util.HashMap' };
  for (const [name, values] of Object.entries(map)) json[name] = value(values);
  return json;
}

function javaSet(values: readonly string[]): unknown[] {
  return ['java.util.HashSet', [...values]];
}
