import {
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { StoreUnavailableError } from '@tessera/core';

/** Driver errors that mean "the database cannot be reached now"; the driver reconnects by itself. */
const CONNECTIVITY_ERRORS = [MongoNetworkError, MongoServerSelectionError, MongoOperationTimeoutError, MongoTopologyClosedError, MongoNotConnectedError];

export function isConnectivityError(error: unknown): boolean {
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
