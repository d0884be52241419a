import { serviceDefinitionWarnings, type ServiceDefinition } from '@tessera/core';
import { DEMO_SERVICES } from './demo.js';
import type { Config } from './schema.js';

export interface ServiceWarning {
  readonly service: ServiceDefinition;
  readonly text: string;
}

/**
 * The warnings about services (core's serviceDefinitionWarnings: no name, a serviceId or proxy policy
 * pattern that does not pin its host). The demo's own service, open to every URL on purpose, is left
 * out: demo mode says so itself.
 */
export function serviceWarnings(config: Pick<Config, 'demo'>, services: readonly ServiceDefinition[]): ServiceWarning[] {
  return services.filter((service) => !(config.demo && isDemoService(service))).flatMap((service) => serviceDefinitionWarnings(service).map((text) => ({ service, text })));
}

function isDemoService(service: ServiceDefinition): boolean {
  return DEMO_SERVICES.some((demo) => demo.id === service.id && demo.name === service.name && demo.serviceId === service.serviceId);
}
