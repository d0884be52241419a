import type { RegisteredService, ServiceDefinition } from '@tessera/core';
import { parseServiceDefinition, type ParseOptions } from './cas-service-json.js';
import { toCasServiceJson } from './cas-service-render.js';
import { legacyServiceDefinition, type LegacyServiceForm } from './legacy-service-form.js';
import type { ServicePolicyCodecs } from './policy-codec.js';
import { PolicySlots } from './policy-slots.js';

/**
 * The service wire formats, with the policy classes given: Apereo CAS service JSON both ways, and the
 * registration API's legacy form. cli-server builds the one of the server (the built-in policies and
 * every module's) for the `services` setting, service files, the `tessera services` commands and the
 * registration routes alike, so a definition means the same to each.
 */
export interface ServiceCodec {
  /** parseServiceDefinition: a definition in Apereo CAS JSON, or InvalidServiceDefinitionError naming every key at fault. */
  readonly parse: (json: unknown, options?: ParseOptions) => ServiceDefinition;
  /** toCasServiceJson: the definition as CAS writes it; parse(render(s)) equals s. */
  readonly render: (service: RegisteredService) => Record<string, unknown>;
  /** legacyServiceDefinition: the definition of the earlier registration form. */
  readonly parseLegacyForm: (form: LegacyServiceForm) => ServiceDefinition;
}

export function serviceCodec(policyCodecs: ServicePolicyCodecs): ServiceCodec {
  const policies = new PolicySlots(policyCodecs);
  return {
    parse: (json, options) => parseServiceDefinition(json, policies, options),
    render: (service) => toCasServiceJson(service, policies),
    parseLegacyForm: (form) => legacyServiceDefinition(form, policies),
  };
}
