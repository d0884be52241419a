import type { ServiceCodec } from '@tessera/adapter-koa';
import { InvalidServiceDefinitionError, type ServiceDefinition } from '@tessera/core';
import { serverServicePolicies } from '../service-policies.js';
import { DEMO_SERVICES } from './demo.js';
import type { ConfigProblem } from './errors.js';
import type { Config } from './schema.js';

export interface ServiceWarning {
  readonly service: ServiceDefinition;
  readonly text: string;
}

/**
 * The warnings about services (the service codec's: core's, no name, a serviceId or proxy policy
 * pattern that does not pin its host, and what modules say of their keys, a short client secret).
 * The demo's own service, open to every URL on purpose, is left out: demo mode says so itself.
 */
export function serviceWarnings(config: Pick<Config, 'demo'>, services: readonly ServiceDefinition[]): ServiceWarning[] {
  return services.filter((service) => !(config.demo && isDemoService(service))).flatMap((service) => serverServicePolicies().codec.warnings(service).map((text) => ({ service, text })));
}

/**
 * With `strictServices`, the warnings about the services read at start as the problems that refuse
 * them, each under the setting it came from (`services[2].clientSecret`, or `servicesDirectory` and the
 * file); none without it. The demo's own service is left out, as serviceWarnings leaves it.
 */
export function strictServiceRefusals(config: Pick<Config, 'demo' | 'strictServices'>, sourced: readonly { readonly definition: ServiceDefinition; readonly origin: string }[]): ConfigProblem[] {
  if (!config.strictServices) return [];
  return sourced
    .filter(({ definition }) => !(config.demo && isDemoService(definition)))
    .flatMap(({ definition, origin }) =>
      serverServicePolicies().codec.strictProblems(definition).map(({ field, problem }): ConfigProblem =>
        origin.startsWith('services[') ? { setting: `${origin}.${field}`, problem } : { setting: 'servicesDirectory', problem: `${origin}: ${field}: ${problem}` },
      ),
    );
}

/** The codec that refuses, with `strictServices`, what it would read with a warning: every definition a request registers goes through it. */
export function strictServiceCodec(codec: ServiceCodec): ServiceCodec {
  const refuseWarned = (definition: ServiceDefinition): ServiceDefinition => {
    const [first, ...more] = codec.strictProblems(definition);
    if (first) throw new InvalidServiceDefinitionError(first.field, first.problem, ...more);
    return definition;
  };
  return { ...codec, parse: (json, options) => refuseWarned(codec.parse(json, options)), parseLegacyForm: (form) => refuseWarned(codec.parseLegacyForm(form)) };
}

function isDemoService(service: ServiceDefinition): boolean {
  return DEMO_SERVICES.some((demo) => demo.id === service.id && demo.name === service.name && demo.serviceId === service.serviceId);
}
