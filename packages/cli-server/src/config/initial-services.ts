import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceTemplates } from '@tessera/adapter-koa';
import { InvalidServiceDefinitionError, type RegisteredService, type ServiceDefinition } from '@tessera/core';
import { configurationError, type ConfigProblem } from './errors.js';
import { parseJsonWithComments } from './json-with-comments.js';
import { configuredServiceTemplates } from './service-templates.js';
import type { Config } from './schema.js';
import { labelledProblems } from './services.js';
import { strictServiceRefusals } from './service-warnings.js';
import { serverServicePolicies } from '../service-policies.js';

export interface Sourced {
  readonly definition: ServiceDefinition;
  /** Where it was defined, for error messages: `services[2]` or a file path. */
  readonly origin: string;
}

/**
 * The services the registry starts with: `services` plus every `*.json` file of `servicesDirectory`,
 * the templates they name applied (`templates`, read from serviceTemplatesDirectory unless given).
 * Ids must be unique across both; definitions without one get the next free id, in order. With
 * strictServices, a definition that would load with a warning is a problem.
 */
export async function initialServices(config: Config, given?: ServiceTemplates): Promise<RegisteredService[]> {
  const templates = given ?? (await configuredServiceTemplates(config));
  const sourced: Sourced[] = configuredServices(config, templates);
  if (config.servicesDirectory !== undefined) sourced.push(...(await readServicesDirectory(config.servicesDirectory, templates)));

  const problems = [...strictServiceRefusals(config, sourced), ...duplicateIds(sourced).map((problem): ConfigProblem => ({ setting: 'servicesDirectory', problem }))];
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

/**
 * The definitions of `services`: those naming templates are read only now, with the templates (the
 * setting's schema cannot see the templates folder); their problems are named like the others'.
 */
function configuredServices(config: Config, templates: ServiceTemplates | undefined): Sourced[] {
  const problems: ConfigProblem[] = [];
  const sourced = config.services.flatMap((entry, index): Sourced[] => {
    const origin = `services[${index}]`;
    if (!('templated' in entry)) return [{ definition: entry, origin }];
    try {
      return [{ definition: serverServicePolicies().codec.parse(entry.templated, { path: origin, ...(templates && { templates }) }), origin }];
    } catch (error) {
      if (!(error instanceof InvalidServiceDefinitionError)) throw error;
      problems.push(...labelledProblems(error, entry.templated).map(({ field, problem }) => ({ setting: field, problem })));
      return [];
    }
  });
  if (problems.length > 0) throw configurationError(problems);
  return sourced;
}

/** One service file: its definition, or every line of what is wrong with it (`<field>: <problem>`). */
export type ServiceFile = Sourced | { readonly origin: string; readonly problems: readonly string[] };

/**
 * Apereo CAS service files, one definition each: each path a file, or a folder whose `*.json` files
 * are read in name order, the templates they name applied. A path that cannot be read is a problem of its own.
 */
export async function readServiceFiles(paths: readonly string[], templates?: ServiceTemplates): Promise<ServiceFile[]> {
  const files: ServiceFile[] = [];
  for (const path of paths) {
    const found = await serviceFilePaths(path);
    if (typeof found === 'string') {
      files.push({ origin: path, problems: [found] });
      continue;
    }
    for (const origin of found) {
      const definition = await readDefinition(origin, templates);
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
async function readServicesDirectory(directory: string, templates: ServiceTemplates | undefined): Promise<Sourced[]> {
  const files = await readServiceFiles([directory], templates);
  const problems = files.flatMap((file): ConfigProblem[] => ('problems' in file ? file.problems.map((problem) => ({ setting: 'servicesDirectory', problem: `${file.origin}: ${problem}` })) : []));
  if (problems.length > 0) throw configurationError(problems);
  return files.filter((file): file is Sourced => 'definition' in file);
}

/** The definition in the file, or what is wrong with it. */
async function readDefinition(path: string, templates: ServiceTemplates | undefined): Promise<ServiceDefinition | string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return [`cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`];
  }
  const json = parseJsonWithComments(text);
  if ('problem' in json) return [json.problem];
  try {
    return serverServicePolicies().codec.parse(json.value, templates && { templates });
  } catch (error) {
    if (!(error instanceof InvalidServiceDefinitionError)) throw error;
    return labelledProblems(error, json.value).map(({ field, problem }) => `${field}: ${problem}`);
  }
}
