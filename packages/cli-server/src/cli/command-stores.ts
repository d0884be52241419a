import type { LoadOptions } from '../config/load.js';
import { buildContainer } from '../container.js';
import { KEYS } from '../keys.js';
import { createLogger } from '../logging.js';
import type { CommandStores, Output } from './command.js';
import { withConfiguration } from './configuration.js';

/** A command's `withStores`: the configured storage opened as the server opens it (no listener, no log), closed once `work` is done. */
export function withCommandStores(options: LoadOptions, err: Output, work: (stores: CommandStores) => Promise<number>): Promise<number | undefined> {
  return withConfiguration(options, err, async (config) => {
    const binder = buildContainer({ config, logger: createLogger('silent'), services: [] });
    await binder.open();
    try {
      return await work({ records: binder.get(KEYS.RecordStores), random: binder.get(KEYS.RandomSource), clock: binder.get(KEYS.Clock), durable: config.storage.type !== 'memory' });
    } finally {
      await binder.close();
    }
  });
}
