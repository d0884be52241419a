import { unpinnedHostWarnings } from './host-pinning.js';
import type { ServiceDefinition } from './registered-service.js';

/**
 * What is said, never refused, about a valid definition: a name left empty (CAS loads it, and the name
 * is only shown to people, but lists and logs then cannot tell the service by it), and URL patterns
 * whose host is not pinned (unpinnedHostWarnings).
 */
export function serviceDefinitionWarnings(service: Pick<ServiceDefinition, 'id' | 'name' | 'serviceId' | 'proxyPolicy'>): string[] {
  const unnamed = service.name.trim() === '' ? [`the service ${service.id === undefined ? `of serviceId ${service.serviceId}` : `of id ${service.id}`} has no name; give it one to tell it apart in lists and logs`] : [];
  return [...unnamed, ...unpinnedHostWarnings(service)];
}
