import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AdminEndpoints } from '../admin/admin-endpoints.js';
import { demoStateFolder } from '../config/demo.js';
import { configurationError } from '../config/errors.js';
import { initialServices } from '../config/initial-services.js';
import { exposedSecretFileWarnings, secretFiles } from '../config/secret-files.js';
import { moduleKeyFiles } from '../modules/index.js';
import { serviceWarnings } from '../config/service-warnings.js';
import type { LoadOptions } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { buildContainer } from '../container.js';
import { createListener } from '../listener.js';
import { createLogger } from '../logging.js';
import { KEYS } from '../keys.js';
import type { Output } from './command.js';
import { withConfiguration } from './configuration.js';

/**
 * `tessera config check`: everything `start` does before it opens storage and listens: the settings,
 * the service definitions and every file the configuration names (keys, certificates, CA files),
 * read and composed as the server would. Nothing is served, connected to or written. Exit 0 or 2.
 */
export function checkConfiguration(options: LoadOptions, out: Output, err: Output): Promise<number | undefined> {
  return withConfiguration(options, err, async (config) => {
    const services = await initialServices(config);
    const notes: string[] = [];
    const checked = withoutKeyFileWrites(config, notes);
    // Composed on memory storage: nothing is connected to.
    const binder = buildContainer({ config: { ...checked, storage: { ...checked.storage, type: 'memory' } }, logger: createLogger('silent'), services });
    new AdminEndpoints(binder, checked);
    const { scheme } = createListener(checked, binder.get(KEYS.HttpApp).callback(), binder.get(KEYS.EventSink));

    const { host, port, basePath } = config.server;
    out.write(`${options.file ?? '(no file: demo defaults)'}: configuration OK\n`);
    out.write(`  would serve ${scheme}://${host}:${port}${basePath} with modules ${config.modules.join(', ')}; ${config.users.length} user(s), ${services.length} service(s)\n`);
    if (config.demo) notes.push('demo mode is on: the demo user casuser can log in; never in production');
    for (const { text } of [...exposedSecretFileWarnings(secretFiles(config)), ...serviceWarnings(config, services)]) out.write(`  warning: ${text}\n`);
    if (config.storage.type === 'mongo') notes.push('storage.mongo.uri was not contacted: start connects to it');
    for (const note of notes) out.write(`  note: ${note}\n`);
    return 0;
  });
}

/**
 * The configuration to compose when a module would write a new key file at start: secrets for this
 * check only, so checking writes nothing, but a folder where start could not write is a problem now.
 * In demo mode start creates the demo's state folder: then its nearest existing parent must be writable.
 */
function withoutKeyFileWrites(config: Config, notes: string[]): Config {
  return moduleKeyFiles(config).reduce((checked, { setting, file, inMemory }) => {
    if (existsSync(file)) return checked;
    const folder = dirname(resolve(file));
    const writable = config.demo && folder === demoStateFolder() ? nearestExisting(folder) : folder;
    try {
      accessSync(writable, constants.W_OK);
    } catch (error) {
      throw configurationError([{ setting, problem: `${file} does not exist and cannot be written in ${writable} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
    }
    notes.push(`${setting} ${file} does not exist yet: start writes new keys there`);
    return inMemory(checked);
  }, config);
}

function nearestExisting(folder: string): string {
  return existsSync(folder) || dirname(folder) === folder ? folder : nearestExisting(dirname(folder));
}
