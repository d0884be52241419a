import type { Clock, RecordStores } from '@tessera/core';

/** The storage's records as a node opens them, on the clock given. */
export type ModuleRecordsFactory = (clock: Clock) => RecordStores | Promise<RecordStores>;
