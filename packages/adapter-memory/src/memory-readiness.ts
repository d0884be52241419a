import type { ReadinessCheck } from '@tessera/core';

/** The memory stores live in the process that answers the probe: they are ready whenever it runs. */
export const memoryStorageReadiness: ReadinessCheck = {
  name: 'storage',
  check: () => Promise.resolve(),
};
