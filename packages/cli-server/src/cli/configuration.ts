import { InvalidConfigurationError } from '@tessera/core';
import { describeProblems, loadConfig, type LoadOptions } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { redactedText } from '../redaction.js';
import type { Output } from './command.js';


/**
 * Runs `work` on the configuration loaded as the server loads it. A bad configuration, found while
 * loading or while `work` reads the files it names, is written to `err` one line per problem (with
 * the variable a setting came from) and answered with exit code 2.
 */
export async function withConfiguration(options: LoadOptions, err: Output, work: (config: Config) => Promise<number | undefined>): Promise<number | undefined> {
  try {
    return await work(loadConfig(options));
  } catch (error) {
    if (!(error instanceof InvalidConfigurationError)) throw error;
    err.write(`tessera: invalid configuration\n${describeProblems(error, options).map((line) => `  ${redactedText(line)}\n`).join('')}`);
    return 2;
  }
}
