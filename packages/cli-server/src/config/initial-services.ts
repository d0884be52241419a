import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { InvalidServiceDefinitionError, type RegisteredService, type ServiceDefinition } from '@tessera/core';
import { configurationError, type ConfigProblem } from './errors.js';
import type { Config } from './schema.js';
import { labelledProblems } from './services.js';
import { serverServicePolicies } from '../service-policies.js';

export interface Sourced {
  readonly definition: ServiceDefinition;
  /** Where it was defined, for error messages: `services[2]` or a file path. */
  readonly origin: string;
}

/**
 * The services the registry starts with: `services` plus every `*.json` file of `servicesDirectory`.
 * Ids must be unique across both; definitions without one get the next free id, in order.
 */
export async function initialServices(config: Config): Promise<RegisteredService[]> {
  const sourced: Sourced[] = config.services.map((definition, index) => ({ definition, origin: `services[${index}]` }));
  if (config.servicesDirectory !== undefined) sourced.push(...(await readServicesDirectory(config.servicesDirectory)));

  const problems = duplicateIds(sourced).map((problem): ConfigProblem => ({ setting: 'servicesDirectory', problem }));
  if (problems.length > 0) throw configurationError(problems);

  let nextId = Math.max(0, ...sourced.flatMap(({ definition }) => definition.id ?? [])) + 1;
  return sourced.map(({ definition }) => ({ ...definition, id: definition.id ?? nextId++ }));
}

/** `<origin>: id N is already used by <origin>` for each definition repeating an id used before it. */
export function duplicateIds(sourced: readonly Sourced[]): string[] {
  const origins = new Map<number, string>();
  return sourced.flatMap(({ definition, origin }) => {
    if (definition.id === undefined) return [];
    const earlier = origins.get(definition.id);
    origins.set(definition.id, origin);
    return earlier === undefined ? [] : [`${origin}: id ${definition.id} is already used by ${earlier}`];
  });
}

/** One service file: its definition, or every line of what is wrong with it (`<field>: <problem>`). */
export type ServiceFile = Sourced | { readonly origin: string; readonly problems: readonly string[] };

/**
 * Apereo CAS service files, one definition each: each path a file, or a folder whose `*.json` files
 * are read in name order. A path that cannot be read is a problem of its own.
 */
export async function readServiceFiles(paths: readonly string[]): Promise<ServiceFile[]> {
  const files: ServiceFile[] = [];
  for (const path of paths) {
    const found = await serviceFilePaths(path);
    if (typeof found === 'string') {
      files.push({ origin: path, problems: [found] });
      continue;
    }
    for (const origin of found) {
      const definition = await readDefinition(origin);
      files.push(Array.isArray(definition) ? { origin, problems: definition } : { origin, definition });
    }
  }
  return files;
}

/** The file itself, or the `*.json` files of the folder; what is wrong when it cannot be read. */
async function serviceFilePaths(path: string): Promise<string[] | string> {
  try {
    if (!(await stat(path)).isDirectory()) return [path];
    return (await readdir(path))
      .filter((name) => name.toLowerCase().endsWith('.json'))
      .sort()
      .map((name) => join(path, name));
  } catch (error) {
    return `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}

/** The folder's definitions; any bad file is a configuration error naming the file, one line per problem. */
async function readServicesDirectory(directory: string): Promise<Sourced[]> {
  const files = await readServiceFiles([directory]);
  const problems = files.flatMap((file): ConfigProblem[] => ('problems' in file ? file.problems.map((problem) => ({ setting: 'servicesDirectory', problem: `${file.origin}: ${problem}` })) : []));
  if (problems.length > 0) throw configurationError(problems);
  return files.filter((file): file is Sourced => 'definition' in file);
}

/** The definition in the file, or what is wrong with it. */
async function readDefinition(path: string): Promise<ServiceDefinition | string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return [`cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`];
  }
  const json = parseJsonWithComments(text);
  if ('problem' in json) return [json.problem];
  try {
    return serverServicePolicies().codec.parse(json.value);
  } catch (error) {
    if (!(error instanceof InvalidServiceDefinitionError)) throw error;
    return labelledProblems(error, json.value).map(({ field, problem }) => `${field}: ${problem}`);
  }
}

/** JSON as Apereo CAS writes service files: `//` and `/* *\/` comments and trailing commas allowed. */
function parseJsonWithComments(text: string): { value: unknown } | { problem: string } {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, allowEmptyContent: false });
  const [first] = errors;
  if (!first) return { value };
  const { line, column } = position(text, first.offset);
  return { problem: `not valid JSON: ${words(printParseErrorCode(first.error))} at line ${line}, column ${column}` };
}

/** 1-based line and column of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** `CloseBraceExpected` → `close brace expected`. */
function words(code: string): string {
  return code.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
}
