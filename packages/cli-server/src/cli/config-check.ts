import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { cryptoRandomSource } from '@tessera/core';
import { generateTokenKeys } from '@tessera/core/modules/tokens';
import { AdminEndpoints } from '../admin/admin-endpoints.js';
import { configurationError } from '../config/errors.js';
import { initialServices } from '../config/initial-services.js';
import { unpinnedServiceWarnings } from '../config/service-warnings.js';
import type { LoadOptions } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { buildContainer } from '../container.js';
import { createListener } from '../listener.js';
import { createLogger } from '../logging.js';
import { KEYS } from '../keys.js';
import { withConfiguration, type Output } from './configuration.js';

/**
 * `tessera config check`: everything `start` does before it opens storage and listens: the settings,
 * the service definitions and every file the configuration names (keys, certificates, CA files),
 * read and composed as the server would. Nothing is served, connected to or written. Exit 0 or 2.
 */
export function checkConfiguration(options: LoadOptions, out: Output, err: Output): Promise<number | undefined> {
  return withConfiguration(options, err, async (config) => {
    const services = await initialServices(config);
    const notes: string[] = [];
    const checked = withoutKeyFileWrite(config, notes);
    // Composed on memory storage: nothing is connected to.
    const binder = buildContainer({ config: { ...checked, storage: { ...checked.storage, type: 'memory' } }, logger: createLogger('silent'), services });
    new AdminEndpoints(binder, checked);
    const { scheme } = createListener(checked, binder.get(KEYS.HttpApp).callback(), binder.get(KEYS.EventSink));

    const { host, port, basePath } = config.server;
    out.write(`${options.file ?? '(no file: demo defaults)'}: configuration OK\n`);
    out.write(`  would serve ${scheme}://${host}:${port}${basePath} with modules ${config.modules.join(', ')}; ${config.users.length} user(s), ${services.length} service(s)\n`);
    if (config.demo) notes.push('demo mode is on: the demo user casuser can log in; never in production');
    for (const { text } of unpinnedServiceWarnings(config, services)) out.write(`  warning: ${text}\n`);
    if (config.storage.type === 'mongo') notes.push('storage.mongo.uri was not contacted: start connects to it');
    for (const note of notes) out.write(`  note: ${note}\n`);
    return 0;
  });
}

/**
 * The configuration to compose when the tokens module would write a new key file at start: keys for
 * this check only, so checking writes nothing, but a folder where start could not write is a problem now.
 */
function withoutKeyFileWrite(config: Config, notes: string[]): Config {
  const { tokens } = config;
  if (!config.modules.includes('tokens') || (tokens.signingKey !== undefined && tokens.encryptionKey !== undefined) || existsSync(tokens.keyFile)) return config;
  const folder = dirname(resolve(tokens.keyFile));
  try {
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw configurationError([{ setting: 'tokens.keyFile', problem: `${tokens.keyFile} does not exist and cannot be written in ${folder} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
  notes.push(`tokens.keyFile ${tokens.keyFile} does not exist yet: start writes a new key pair there`);
  const generated = generateTokenKeys(tokens.encryptionAlgorithm, cryptoRandomSource);
  return { ...config, tokens: { ...tokens, signingKey: tokens.signingKey ?? generated.signingKey, encryptionKey: tokens.encryptionKey ?? generated.encryptionKey } };
}
