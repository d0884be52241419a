import type { ServiceDefinitionProblem } from '../errors.js';
import { releasePolicyWarnings } from '../../service-policies/release-settings.js';
import { serviceWarningLabel, unpinnedHosts, type KeyWarning } from './host-pinning.js';
import type { ServiceDefinition } from './registered-service.js';

type Warned = Pick<ServiceDefinition, 'id' | 'name' | 'serviceId' | 'proxyPolicy' | 'attributeRelease'>;

/**
 * What is said, never refused, about a valid definition, by key: a name left empty (CAS loads it, and
 * the name is only shown to people, but lists and logs then cannot tell the service by it), URL patterns
 * whose host is not pinned (unpinnedHosts), release policy settings that change nothing here
 * (releasePolicyWarnings), and what the modules say of their keys (`moduleWarnings`: the service
 * codec asks the codec parts of the service's type and sections).
 */
export function definitionWarnings(service: Warned, moduleWarnings: readonly KeyWarning[] = []): KeyWarning[] {
  const unnamed = service.name.trim() === '' ? [{ field: 'name', text: 'has no name; give it one to tell it apart in lists and logs' }] : [];
  const release = releasePolicyWarnings(service.attributeRelease).map((text) => ({ field: 'attributeReleasePolicy', text }));
  return [...unnamed, ...unpinnedHosts(service), ...release, ...moduleWarnings];
}

/** definitionWarnings, each a line naming the service. */
export function serviceDefinitionWarnings(service: Warned, moduleWarnings: readonly KeyWarning[] = []): string[] {
  return definitionWarnings(service, moduleWarnings).map(({ field, text }) =>
    field === 'name' ? `the service ${service.id === undefined ? `of serviceId ${service.serviceId}` : `of id ${service.id}`} ${text}` : `${serviceWarningLabel(service)}: ${text}`,
  );
}

/**
 * The warnings of a definition as the problems that refuse it where warnings are refusals (the
 * `strictServices` setting, `tessera services validate --strict`).
 */
export function strictServiceProblems(service: Warned, moduleWarnings: readonly KeyWarning[] = []): ServiceDefinitionProblem[] {
  return definitionWarnings(service, moduleWarnings).map(({ field, text }) => ({ field, problem: `${text} (refused in strict mode)` }));
}
