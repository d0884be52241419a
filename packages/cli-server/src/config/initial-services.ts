import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidServiceDefinitionError, parseServiceDefinition, type RegisteredService, type ServiceDefinition } from '@tessera/core';
import { configurationError, type ConfigProblem } from './errors.js';
import type { Config } from './schema.js';

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

  const problems: ConfigProblem[] = [];
  const origins = new Map<number, string>();
  for (const { definition, origin } of sourced) {
    if (definition.id === undefined) continue;
    const earlier = origins.get(definition.id);
    if (earlier !== undefined) problems.push({ setting: 'servicesDirectory', problem: `${origin}: id ${definition.id} is already used by ${earlier}` });
    origins.set(definition.id, origin);
  }
  if (problems.length > 0) throw configurationError(problems);

  let nextId = Math.max(0, ...origins.keys()) + 1;
  return sourced.map(({ definition }) => ({ ...definition, id: definition.id ?? nextId++ }));
}

/** One `*.json` file of a services folder: its definition, or what is wrong with it (`<field>: <problem>`). */
export type ServiceFile = Sourced | { readonly origin: string; readonly problem: string };

/** Apereo CAS service files, one definition each, in file name order. Throws when the folder cannot be read. */
export async function readServiceFiles(directory: string): Promise<ServiceFile[]> {
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => name.toLowerCase().endsWith('.json')).sort();
  } catch (error) {
    throw configurationError([{ setting: 'servicesDirectory', problem: `cannot read ${directory} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
  const files: ServiceFile[] = [];
  for (const name of names) {
    const origin = join(directory, name);
    const definition = await readDefinition(origin);
    files.push(typeof definition === 'string' ? { origin, problem: definition } : { origin, definition });
  }
  return files;
}

/** The folder's definitions; any bad file is a configuration error naming the file. */
export async function readServicesDirectory(directory: string): Promise<Sourced[]> {
  const files = await readServiceFiles(directory);
  const problems = files.flatMap((file): ConfigProblem[] => ('problem' in file ? [{ setting: 'servicesDirectory', problem: `${file.origin}: ${file.problem}` }] : []));
  if (problems.length > 0) throw configurationError(problems);
  return files.filter((file): file is Sourced => 'definition' in file);
}

/** The definition in the file, or what is wrong with it. */
async function readDefinition(path: string): Promise<ServiceDefinition | string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  try {
    return parseServiceDefinition(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError) return `not valid JSON (${error.message})`;
    if (error instanceof InvalidServiceDefinitionError) return error.message;
    throw error;
  }
}
