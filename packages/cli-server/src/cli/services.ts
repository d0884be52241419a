import type { ServiceTemplates } from '@tessera/adapter-koa';
import { ImportServices, type RegisteredService, type ServiceRegistry } from '@tessera/core';
import { serverServicePolicies } from '../service-policies.js';
import { duplicateIds, initialServices, readServiceFiles, type Sourced } from '../config/initial-services.js';
import { configuredServiceTemplates, readServiceTemplates } from '../config/service-templates.js';
import type { LoadOptions } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { buildContainer } from '../container.js';
import type { Binder } from '../di.js';
import { createLogger } from '../logging.js';
import { KEYS } from '../keys.js';
import type { Output } from './command.js';
import { withConfiguration } from './configuration.js';

/** `tessera services list`: the registry the server would start with (configuration, servicesDirectory, the registry store). */
export function listServices(options: LoadOptions, out: Output, err: Output): Promise<number | undefined> {
  return withConfiguration(options, err, (config) =>
    withRegistry(config, async ({ registry, durable }) => {
      const rows = (await registry.list()).map((s) => [String(s.id), String(s.evaluationOrder), s.accessStrategy.enabled ? 'yes' : 'no', s.name, s.serviceId]);
      out.write(table([['ID', 'ORDER', 'ENABLED', 'NAME', 'SERVICE ID'], ...rows]));
      if (!durable) err.write('Listed from the configuration and servicesDirectory. Services registered over REST live in the memory of the server that took them and are not shown.\n');
      return 0;
    }),
  );
}

/**
 * `tessera services import DIR`: every file checked first, the templates they name applied (those of
 * `--templates DIR`, else of serviceTemplatesDirectory); only when all are valid are they saved, merged,
 * into the registry store. Exit 1: invalid files.
 */
export async function importServices(directory: string, templatesDirectory: string | undefined, options: LoadOptions, out: Output, err: Output): Promise<number | undefined> {
  return withConfiguration(options, err, async (config) => {
    const templates = templatesDirectory === undefined ? { templates: await configuredServiceTemplates(config), problems: [] } : await readServiceTemplates(templatesDirectory);
    const checked = await checkServiceFiles([directory], templates, err, config.strictServices);
    if (!checked) return 1;
    return withRegistry(config, async ({ binder, registry, durable }) => {
      const importer = new ImportServices(registry, binder.get(KEYS.RandomSource), binder.get(KEYS.EventSink));
      for (const { origin, definition } of checked) {
        const { saved, replaced } = await importer.save(definition);
        out.write(`${origin}: ${summary(saved, definition.id === undefined, durable)}${replaced ? `, replacing "${replaced.name}"` : ''}\n`);
      }
      out.write(
        durable
          ? `Imported ${checked.length} service(s).\n`
          : `${checked.length} service file(s) valid. Nothing was imported: the service registry is in memory and lasts only as long as one process. ` +
              `To load these files at every start, set servicesDirectory to ${directory}.\n`,
      );
      return 0;
    });
  });
}

/**
 * `tessera services validate PATH...`: checks files and folders as the server reads them, with the
 * templates of `--templates DIR`; imports nothing and reads no configuration. With `strict` (`--strict`)
 * what would load with a warning is refused, as strictServices makes the server refuse it. Exit 1: invalid files.
 */
export async function validateServices(paths: readonly string[], templatesDirectory: string | undefined, out: Output, err: Output, strict = false): Promise<number> {
  const templates = templatesDirectory === undefined ? { templates: undefined, problems: [] } : await readServiceTemplates(templatesDirectory);
  const checked = await checkServiceFiles(paths, templates, err, strict);
  if (!checked) return 1;
  for (const { origin, definition } of checked) {
    out.write(`${origin}: valid, "${definition.name}" ${definition.id === undefined ? 'without an id (one is assigned when it is loaded)' : `as id ${definition.id}`}\n`);
  }
  out.write(`${checked.length} service file(s) valid.\n`);
  return 0;
}

/**
 * The definitions of every file, or undefined after writing each problem to `err`, one line each naming
 * the file, the key and the service; the problems of the template files first, each naming its file.
 * A valid definition with no name, whose host is not pinned or whose client secret is short, gets a
 * warning line there; with `strict`, that warning is a problem instead.
 */
async function checkServiceFiles(
  paths: readonly string[],
  templates: { readonly templates: ServiceTemplates | undefined; readonly problems: readonly string[] },
  err: Output,
  strict: boolean,
): Promise<Sourced[] | undefined> {
  const files = await readServiceFiles(paths, templates.templates);
  const valid = files.filter((file): file is Sourced => 'definition' in file);
  const refusedWarnings = strict ? valid.flatMap(({ origin, definition }) => serverServicePolicies().codec.strictProblems(definition).map(({ field, problem }) => `${origin}: ${field}: ${problem} (${serviceLabel(definition)})`)) : [];
  const problems = [
    ...templates.problems,
    ...files.flatMap((file) => ('problems' in file ? file.problems.map((problem) => `${file.origin}: ${problem}`) : [])),
    ...refusedWarnings,
    ...duplicateIds(valid),
  ];
  if (problems.length === 0) {
    // Valid all the same, as in Apereo CAS: said, never refused.
    for (const { origin, definition } of valid) for (const warning of serverServicePolicies().codec.warnings(definition)) err.write(`${origin}: warning: ${warning}\n`);
    return valid;
  }
  err.write(`${problems.join('\n')}\n${problems.length} problem(s) in ${files.length} file(s) of ${paths.join(', ')}; nothing was imported.\n`);
  return undefined;
}

/** Runs `work` on the registry the server would start with, then lets go of the storage. */
async function withRegistry<T>(config: Config, work: (parts: { binder: Binder; registry: ServiceRegistry; durable: boolean }) => Promise<T>): Promise<T> {
  const logger = createLogger('silent');
  const templates = await configuredServiceTemplates(config);
  const binder = buildContainer({ config, logger, services: await initialServices(config, templates), templates });
  await binder.open();
  try {
    return await work({ binder, registry: binder.get(KEYS.ServiceRegistry), durable: binder.get(KEYS.ServiceRegistryOutlivesProcess) });
  } finally {
    await binder.close();
  }
}

/** `service "Intranet", id 3`, as problem lines name the service. */
function serviceLabel(definition: { readonly name: string; readonly id?: number }): string {
  return `service ${JSON.stringify(definition.name)}${definition.id === undefined ? '' : `, id ${definition.id}`}`;
}

function summary(service: RegisteredService, assigned: boolean, durable: boolean): string {
  if (!durable) return `valid, would load "${service.name}" ${assigned ? 'as a new service (the file has no id)' : `as id ${service.id}`}`;
  return `imported "${service.name}" as id ${service.id}${assigned ? ' (assigned)' : ''}`;
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n') + '\n';
}
