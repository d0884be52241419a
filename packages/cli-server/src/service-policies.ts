import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec, type ServiceCodec, type ServicePolicyCodec, type ServiceSectionCodec, type ServiceTypeCodec } from '@tessera/adapter-koa';
import { BUILT_IN_RELEASE_POLICIES, BUILT_IN_USERNAME_PROVIDERS, ServicePolicies, type AttributeReleasePolicy, type SecondFactorDeclaration, type UsernameProvider } from '@tessera/core';
import { MODULES } from './modules/index.js';
import type { TesseraModule } from './modules/module.js';

/** One policy class: its behaviour (core's port) and its wire form in the service JSON (adapter-koa's codec part), of the same class. */
export interface PolicyRegistration<Behaviour extends { readonly type: string }> {
  readonly behaviour: Behaviour;
  readonly codec: ServicePolicyCodec;
}

/** The policy classes a module adds (docs/adding-a-module.md). */
export interface ServicePolicyRegistrations {
  readonly releasePolicies?: readonly PolicyRegistration<AttributeReleasePolicy>[];
  readonly usernameProviders?: readonly PolicyRegistration<UsernameProvider>[];
}

/**
 * What service definitions are read with beside the built-in keys: the policy classes, the
 * second-factor providers a `multifactorPolicy` may name, the service classes modules bring and the
 * keys they read from any service.
 */
export interface ServiceDefinitionParts extends ServicePolicyRegistrations {
  readonly secondFactors?: readonly SecondFactorDeclaration[];
  readonly serviceTypes?: readonly ServiceTypeCodec[];
  readonly serviceSections?: readonly ServiceSectionCodec[];
}

/** The policies of every service definition today: always there, whatever the modules. */
export const BUILT_IN_SERVICE_POLICIES: ServicePolicyRegistrations = {
  releasePolicies: paired(BUILT_IN_RELEASE_POLICIES, BUILT_IN_RELEASE_POLICY_CODECS),
  usernameProviders: paired(BUILT_IN_USERNAME_PROVIDERS, BUILT_IN_USERNAME_PROVIDER_CODECS),
};

/** What the server reads and honours service definitions with: the registry of behaviours (core) and the codec (the service JSON). */
export interface ServicePolicyParts {
  readonly policies: ServicePolicies;
  readonly codec: ServiceCodec;
}

/**
 * The built-in policies and every listed module's, with every listed module's second-factor
 * providers, service types and service sections, whether or not the module is on: service
 * definitions are read before the configuration is (the `services` setting) and without one
 * (`tessera services validate`), and a stored definition must mean the same to every command.
 */
export function serverPolicyRegistrations(
  modules: readonly Pick<TesseraModule, 'servicePolicies' | 'secondFactors' | 'serviceTypes' | 'serviceSections'>[] = MODULES,
): Required<ServiceDefinitionParts> {
  const all = [BUILT_IN_SERVICE_POLICIES, ...modules.map((module): ServicePolicyRegistrations => module.servicePolicies ?? {})];
  return {
    releasePolicies: all.flatMap((each) => each.releasePolicies ?? []),
    usernameProviders: all.flatMap((each) => each.usernameProviders ?? []),
    secondFactors: modules.flatMap((module) => module.secondFactors ?? []),
    serviceTypes: modules.flatMap((module) => module.serviceTypes ?? []),
    serviceSections: modules.flatMap((module) => module.serviceSections ?? []),
  };
}

/**
 * The registry and the codec of these registrations. A class registered twice, or whose two parts
 * disagree on their class, is refused, and so is a second-factor provider id declared twice, a service
 * class declared twice, and a service key or data key two parts would read.
 */
export function servicePolicyParts({ releasePolicies = [], usernameProviders = [], secondFactors = [], serviceTypes = [], serviceSections = [] }: ServiceDefinitionParts): ServicePolicyParts {
  for (const { behaviour, codec } of [...releasePolicies, ...usernameProviders]) {
    if (behaviour.type !== codec.type) throw new Error(`a policy registration pairs ${behaviour.type} with the codec part of ${codec.type}`);
  }
  const ids = secondFactors.map(({ id }) => id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) throw new Error(`the second-factor provider ${repeated} is declared twice`);
  return {
    policies: new ServicePolicies({ releasePolicies: releasePolicies.map(({ behaviour }) => behaviour), usernameProviders: usernameProviders.map(({ behaviour }) => behaviour) }),
    codec: serviceCodec({ releasePolicies: releasePolicies.map(({ codec }) => codec), usernameProviders: usernameProviders.map(({ codec }) => codec), secondFactors, serviceTypes, serviceSections }),
  };
}

let serverParts: ServicePolicyParts | undefined;

/** The server's own registry and codec (the built-in policies and every module's), built once. */
export function serverServicePolicies(): ServicePolicyParts {
  return (serverParts ??= servicePolicyParts(serverPolicyRegistrations()));
}

/** Each behaviour with the codec part of its class. */
function paired<Behaviour extends { readonly type: string }>(behaviours: readonly Behaviour[], codecs: readonly ServicePolicyCodec[]): PolicyRegistration<Behaviour>[] {
  const unpaired = codecs.filter((codec) => !behaviours.some((behaviour) => behaviour.type === codec.type));
  if (unpaired.length > 0) throw new Error(`${unpaired.map((codec) => codec.type).join(', ')} has no behaviour`);
  return behaviours.map((behaviour) => {
    const codec = codecs.find((candidate) => candidate.type === behaviour.type);
    if (!codec) throw new Error(`${behaviour.type} has no codec part`);
    return { behaviour, codec };
  });
}
