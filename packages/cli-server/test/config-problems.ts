import { expect } from 'chai';
import type { ServiceDefinition } from '@tessera/core';
import { ConfigurationError, parseConfig, type Config } from '@tessera/cli-server';

/** The lines of the ConfigurationError that `raw` raises: one per bad setting, each naming it. */
export function configProblems(raw: unknown): string[] {
  try {
    parseConfig(raw);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.message.split('\n');
    throw error;
  }
  return expect.fail('expected a ConfigurationError');
}

/** The configured definitions, read by the schema: none of them names service templates (those are read at start). */
export function definitionsOf(services: Config['services']): ServiceDefinition[] {
  return services.map((entry) => ('templated' in entry ? expect.fail('a definition naming templates, read only at start') : entry));
}
