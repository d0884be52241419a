import {
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoStalePrimaryError,
  MongoTopologyClosedError,
} from 'mongodb';
import { StoreUnavailableError } from '@tessera/core';

/** Driver errors that mean "the database cannot be reached now"; the driver reconnects by itself. */
const CONNECTIVITY_ERRORS = [
  MongoNetworkError,
  MongoServerSelectionError,
  MongoOperationTimeoutError,
  MongoTopologyClosedError,
  MongoNotConnectedError,
  MongoStalePrimaryError,
];

/**
 * Server answers during a failover or shutdown (the SDAM spec's "not writable primary" and
 * "node is recovering" codes). The driver retries once; if the election is still running, the
 * request gets 503 rather than 500.
 */
const FAILOVER_CODES = new Set([
  10107, // NotWritablePrimary
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
  11602, // InterruptedDueToReplStateChange
  189, // PrimarySteppedDown
  91, // ShutdownInProgress
  11600, // InterruptedAtShutdown
]);

export function isConnectivityError(error: unknown): boolean {
  if (error instanceof MongoServerError) return typeof error.code === 'number' && FAILOVER_CODES.has(error.code);
  return CONNECTIVITY_ERRORS.some((type) => error instanceof type);
}

/**
 * Runs one database call. A lost database becomes core's StoreUnavailableError (503, retry later);
 * anything else (a duplicate id, a bug) stays as it is.
 */
export async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!isConnectivityError(error)) throw error;
    throw new StoreUnavailableError('The ticket and service database (MongoDB) cannot be reached; try again shortly', { cause: error });
  }
}
