import {
  MemoryRecordStores,
  MemoryServiceRegistry,
  MemoryTicketStore,
  MemoryUserDirectory,
  memoryStorageReadiness,
} from '@tessera/adapter-memory';
import type { Clock, RegisteredService } from '@tessera/core';
import type { Storage, StorageInputs, StorageSettings, StorePorts } from './storage.js';

/** The in-memory adapters, filled from the configuration. */
export function memoryStores(
  config: StorageSettings,
  services: readonly RegisteredService[],
  clock: Clock,
): StorePorts & { tickets: MemoryTicketStore; records: MemoryRecordStores } {
  const tickets = new MemoryTicketStore(clock, { maxTickets: config.storage.memory.maxTickets });
  return {
    tickets,
    registry: new MemoryServiceRegistry(services),
    users: new MemoryUserDirectory(config.users),
    records: new MemoryRecordStores(clock),
    readiness: memoryStorageReadiness,
    liveTgts: tickets,
  };
}

/** Memory stores plus the sweeper that frees expired tickets and records (reads already ignore them). */
export function openMemoryStorage({ config, services, clock, logger }: StorageInputs): Storage {
  const ports = memoryStores(config, services, clock);
  const sweeper = setInterval(() => {
    const removed = ports.tickets.sweep();
    ports.records.sweep();
    if (removed > 0) logger.debug({ removed }, 'expired tickets swept');
  }, config.storage.memory.sweepIntervalSeconds * 1000).unref();
  return {
    ports,
    connection: { kind: 'memory' },
    close: () => {
      clearInterval(sweeper);
      return Promise.resolve();
    },
  };
}
