import { expect } from 'chai';
import { ConfigurationError, parseConfig } from '@tessera/cli-server';

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
