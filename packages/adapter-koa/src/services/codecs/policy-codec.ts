import type { InvalidServiceDefinitionError, SecondFactorDeclaration, ServiceDefinitionProblem, ServicePolicy } from '@tessera/core';
import type { KeyRules } from './cas-service-keys.js';
import type { ServiceSectionCodec, ServiceTypeCodec } from './module-service-keys.js';

/**
 * Reads the policies a policy holds (a chain's, a filter's inner policy) through the codec part of
 * their own class. `field` names where one sits within the holding policy (`policies[0]`), so a
 * problem names its whole path.
 */
export interface PolicyParsing {
  /** The error for `field` of this policy, its path in the definition put before it. */
  readonly fail: (field: string, problem: string) => InvalidServiceDefinitionError;
  readonly releasePolicy: (json: unknown, field: string) => ServicePolicy;
  readonly usernameProvider: (json: unknown, field: string) => ServicePolicy;
}

/** Writes the policies a policy holds, as CAS writes them (`@class` first). */
export interface PolicyRendering {
  readonly releasePolicy: (policy: ServicePolicy) => Record<string, unknown>;
  readonly usernameProvider: (policy: ServicePolicy) => Record<string, unknown>;
}

/** Checks the keys of the policies a policy holds; `field` is the path of the one checked. */
export interface PolicyKeyChecks {
  readonly releasePolicy: (json: unknown, field: string) => ServiceDefinitionProblem[];
  readonly usernameProvider: (json: unknown, field: string) => ServiceDefinitionProblem[];
}

/**
 * The wire side of one Apereo CAS policy class (an attribute release policy or a username provider) in
 * the service JSON: its keys, what they mean, and how CAS writes them back. The behaviour of the class is
 * its core registration (core's ports/service-policies.ts); cli-server pairs the two.
 */
export interface ServicePolicyCodec<P extends ServicePolicy = ServicePolicy> {
  /** The class, fully qualified; a definition may write it so, by its simple name, or in another package (CAS's older `org.jasig.cas.services`). */
  readonly type: string;
  /** Its keys: those read (`@class` among them), those accepted and dropped, CAS's it refuses with what to write instead. */
  readonly keys: KeyRules;
  /** How a refusal names what is accepted, when more than the class (`… without options`); the class otherwise. */
  readonly accepted?: string;
  /** Problems within the value of a key it reads, for keys that hold policies; none when omitted. */
  keyProblemsInside?(key: string, value: unknown, field: string, nested: PolicyKeyChecks): ServiceDefinitionProblem[];
  /** Its settings as the JSON gives them (keys already checked), defaults filled in; throws through `parsing.fail`. */
  parse(json: Readonly<Record<string, unknown>>, parsing: PolicyParsing): Omit<P, 'type'>;
  /** Its keys as CAS writes them, `@class` aside, options only when not their default: parse(render(p)) equals p. */
  render(policy: P, nested: PolicyRendering): Record<string, unknown>;
}

/**
 * What a service codec reads and writes definitions with beside CAS's own keys: the codec parts of
 * policies, each for its own class; the second-factor providers a `multifactorPolicy` may name (none:
 * a policy naming any is refused); the service classes modules bring and the keys they read from any
 * service (module-service-keys.ts).
 */
export interface ServiceCodecParts {
  readonly releasePolicies: readonly ServicePolicyCodec[];
  readonly usernameProviders: readonly ServicePolicyCodec[];
  readonly secondFactors?: readonly SecondFactorDeclaration[];
  readonly serviceTypes?: readonly ServiceTypeCodec[];
  readonly serviceSections?: readonly ServiceSectionCodec[];
}
