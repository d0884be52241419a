import { ImportServices, InvalidConfigurationError, systemClock, type RegisteredService, type ServiceRegistry } from '@tessera/core';
import { initialServices, readServiceFiles, type Sourced } from '../config/initial-services.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { buildContainer } from '../container.js';
import type { Binder } from '../di.js';
import { openStorage } from '../storage/storage.js';
import { createLogger } from '../logging.js';
import { TOKENS } from '../tokens.js';

export const SERVICES_USAGE = `  tessera services list [--config FILE]        list the registered services, in evaluation order
  tessera services import DIR [--config FILE]  check every CAS JSON service file in DIR and import them`;

interface Output {
  write(text: string): unknown;
}

/**
 * `tessera services list|import`: works on the service registry the server would start with
 * (configuration, servicesDirectory, and the registry store). Exit codes: 0 done, 1 invalid files,
 * 2 bad usage or configuration.
 */
export async function servicesCommand(args: readonly string[], file: string | undefined, out: Output, err: Output): Promise<number> {
  const [command, ...rest] = args;
  if (!((command === 'list' && rest.length === 0) || (command === 'import' && rest.length === 1))) {
    err.write(`tessera: expected one of\n${SERVICES_USAGE}\n`);
    return 2;
  }
  try {
    const config = loadConfig({ env: process.env, ...(file === undefined ? {} : { file }) });
    return command === 'list' ? await listServices(config, out, err) : await importFolder(config, rest[0] ?? '', out, err);
  } catch (error) {
    if (!(error instanceof InvalidConfigurationError)) throw error;
    err.write(`tessera: invalid configuration\n${error.message.replace(/^/gm, '  ')}\n`);
    return 2;
  }
}

/** Runs `work` on the registry the server would start with, then lets go of the storage. */
async function withRegistry<T>(config: Config, work: (parts: { binder: Binder; registry: ServiceRegistry; durable: boolean }) => Promise<T>): Promise<T> {
  const logger = createLogger('silent');
  const storage = await openStorage({ config, services: await initialServices(config), clock: systemClock, logger });
  try {
    const binder = buildContainer({ config, logger, stores: storage.ports });
    return await work({ binder, registry: binder.get(TOKENS.ServiceRegistry), durable: binder.get(TOKENS.ServiceRegistryOutlivesProcess) });
  } finally {
    await storage.close();
  }
}

async function listServices(config: Config, out: Output, err: Output): Promise<number> {
  return withRegistry(config, async ({ registry, durable }) => {
    const rows = (await registry.list()).map((s) => [String(s.id), String(s.evaluationOrder), s.accessStrategy.enabled ? 'yes' : 'no', s.name, s.serviceId]);
    out.write(table([['ID', 'ORDER', 'ENABLED', 'NAME', 'SERVICE ID'], ...rows]));
    if (!durable) err.write('Listed from the configuration and servicesDirectory. Services registered over REST live in the memory of the server that took them and are not shown.\n');
    return 0;
  });
}

async function importFolder(config: Config, directory: string, out: Output, err: Output): Promise<number> {
  const files = await readServiceFiles(directory);
  const problems = files.flatMap((file) => ('problem' in file ? [`${file.origin}: ${file.problem}`] : []));
  const valid = files.filter((file): file is Sourced => 'definition' in file);
  problems.push(...duplicateIds(valid));
  if (problems.length > 0) {
    err.write(`${problems.join('\n')}\n${problems.length} problem(s) in ${files.length} file(s) of ${directory}; nothing imported.\n`);
    return 1;
  }
  return withRegistry(config, async ({ binder, registry, durable }) => {
    const importer = new ImportServices(registry, binder.get(TOKENS.RandomSource), binder.get(TOKENS.EventSink));
    for (const { origin, definition } of valid) {
      const { saved, replaced } = await importer.save(definition);
      out.write(`${origin}: ${summary(saved, definition.id === undefined, durable)}${replaced ? `, replacing "${replaced.name}"` : ''}\n`);
    }
    out.write(
      durable
        ? `Imported ${valid.length} service(s).\n`
        : `${valid.length} service file(s) valid. Nothing was imported: the service registry is in memory and lasts only as long as one process. ` +
            `To load these files at every start, set servicesDirectory to ${directory}.\n`,
    );
    return 0;
  });
}

function summary(service: RegisteredService, assigned: boolean, durable: boolean): string {
  if (!durable) return `valid, would load "${service.name}" ${assigned ? 'as a new service (the file has no id)' : `as id ${service.id}`}`;
  return `imported "${service.name}" as id ${service.id}${assigned ? ' (assigned)' : ''}`;
}

function duplicateIds(files: readonly Sourced[]): string[] {
  const seen = new Map<number, string>();
  return files.flatMap(({ origin, definition }) => {
    if (definition.id === undefined) return [];
    const earlier = seen.get(definition.id);
    seen.set(definition.id, origin);
    return earlier === undefined ? [] : [`${origin}: id: ${definition.id} is already used by ${earlier}`];
  });
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n') + '\n';
}
