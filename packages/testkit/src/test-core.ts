import { createCasCore, type CasCore, type CasCorePorts, type CasCoreSettings } from '@tessera/core';

/** The ports and settings of a test's core, in one record. */
export type TestCoreParts = CasCorePorts & CasCoreSettings;

/**
 * The use cases on the given ports, for tests of the adapters that take a CasCore: the graph the
 * server's container builds, by the same factory (core's `createCasCore`).
 */
export function testCore(parts: TestCoreParts): CasCore {
  return createCasCore(parts, parts);
}
