import { StoreUnavailableError } from '@tessera/core';

/**
 * Redis error replies that mean "not now" rather than "wrong": the server is loading its data, a
 * script is running too long, the cluster lost a slot's master or is failing over.
 */
const TRANSIENT_REPLIES = ['LOADING', 'BUSY', 'CLUSTERDOWN', 'TRYAGAIN', 'MASTERDOWN', 'READONLY', 'NOREPLICAS'];

/**
 * Everything but an error reply of the server is the connection's doing (refused, reset, closed, a
 * command timed out, a cluster with no reachable node); of the error replies, only the transient
 * ones. Any other error reply (a script error, a wrong argument) is a bug and stays as it is.
 */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name !== 'ReplyError') return true;
  return TRANSIENT_REPLIES.some((code) => error.message.startsWith(`${code} `) || error.message === code);
}

/** Runs one Redis call; a lost or silent Redis becomes core's StoreUnavailableError (503, retry later). */
export async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    throw new StoreUnavailableError(`The ticket and service store (Redis) cannot be reached: ${(error as Error).message}`, { cause: error });
  }
}
