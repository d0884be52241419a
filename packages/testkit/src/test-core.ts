import { BUILT_IN_RELEASE_POLICIES, BUILT_IN_USERNAME_PROVIDERS, createCasCore, ServicePolicies, type CasCore, type CasCorePorts, type CasCoreSettings } from '@tessera/core';

/** The ports and settings of a test's core, in one record; the built-in service policies unless given. */
export type TestCoreParts = Omit<CasCorePorts, 'servicePolicies'> & Partial<Pick<CasCorePorts, 'servicePolicies'>> & CasCoreSettings;

/** The registry every server has: the built-in release policies and username provider. */
export function builtInServicePolicies(): ServicePolicies {
  return new ServicePolicies({ releasePolicies: BUILT_IN_RELEASE_POLICIES, usernameProviders: BUILT_IN_USERNAME_PROVIDERS });
}

/**
 * The use cases on the given ports, for tests of the adapters that take a CasCore: the graph the
 * server's container builds, by the same factory (core's `createCasCore`).
 */
export function testCore(parts: TestCoreParts): CasCore {
  return createCasCore({ ...parts, servicePolicies: parts.servicePolicies ?? builtInServicePolicies() }, parts);
}
