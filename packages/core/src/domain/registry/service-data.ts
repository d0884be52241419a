import type { RegisteredService } from './registered-service.js';

/**
 * One module's data on a service (`RegisteredService.moduleData`), by its key: the module that reads
 * and writes it owns the key and the type of the data (docs/adding-a-module.md §6.1), its codec part
 * makes it from the definition's keys, and no central part looks inside. The data is plain JSON, so
 * every store keeps it as it is.
 */
export interface ServiceDataKey<Data> {
  /** Its key in `moduleData`: a word (letters and digits), which every store keeps as a field name. */
  readonly key: string;
  /** The module's data on this service, if the service holds any. */
  of(service: Pick<RegisteredService, 'moduleData'>): Data | undefined;
}

const DATA_KEY = /^[a-z][A-Za-z0-9]*$/;

/** The typed key of a module's data on services; `key` a word starting with a lower-case letter (`oidcClient`). */
export function serviceDataKey<Data>(key: string): ServiceDataKey<Data> {
  if (!DATA_KEY.test(key)) throw new Error(`the service data key ${JSON.stringify(key)} must be a word of letters and digits starting with a lower-case letter`);
  return {
    key,
    of: ({ moduleData }) => (moduleData !== undefined && Object.hasOwn(moduleData, key) ? (moduleData[key] as Data) : undefined),
  };
}
