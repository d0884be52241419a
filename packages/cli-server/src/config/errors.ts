import type { z } from 'zod';
import { InvalidConfigurationError } from '@tessera/core';

export interface ConfigProblem {
  /** The exact dotted setting, e.g. `server.port` or `users[1].passwordHash`. */
  readonly setting: string;
  readonly problem: string;
}

/** Every problem found in a configuration, one line each: `<setting>: <problem>`. */
export class ConfigurationError extends InvalidConfigurationError {
  constructor(readonly problems: readonly [ConfigProblem, ...ConfigProblem[]]) {
    super(problems[0].setting, problems[0].problem);
    this.message = problems.map(({ setting, problem }) => `${setting}: ${problem}`).join('\n');
  }
}

export function configurationError(problems: readonly ConfigProblem[]): ConfigurationError {
  const [first, ...rest] = problems;
  if (!first) throw new Error('configurationError needs at least one problem');
  return new ConfigurationError([first, ...rest]);
}

/** `['users', 1, 'username']` → `users[1].username`. */
export function settingName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const segment of path) {
    name += typeof segment === 'number' ? `[${segment}]` : name === '' ? String(segment) : `.${String(segment)}`;
  }
  return name || '(configuration)';
}

export function problemsOf(error: z.ZodError): ConfigProblem[] {
  return error.issues.flatMap((issue): ConfigProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ setting: settingName([...issue.path, key]), problem: 'unknown setting' }));
    }
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    return [{ setting: settingName(issue.path), problem: missing ? 'is required' : issue.message }];
  });
}

/** The problems of any configuration error: a ConfigurationError's list, or the one setting of core's error. */
export function problemsOfError(error: InvalidConfigurationError): readonly ConfigProblem[] {
  if (error instanceof ConfigurationError) return error.problems;
  const prefix = `${error.setting}: `;
  return [{ setting: error.setting, problem: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message }];
}
