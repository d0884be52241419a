import { StoreUnavailableError } from '@tessera/core';

/**
 * Redis error replies that mean "not now" rather than "wrong": the server is loading its data, a
 * script is running too long, the cluster lost a slot's master or is failing over, a slot is being
 * moved (TRYAGAIN; MOVED and ASK, which the cluster client follows, reach here only once it gave up).
 */
const TRANSIENT_REPLIES = ['LOADING', 'BUSY', 'CLUSTERDOWN', 'TRYAGAIN', 'MOVED', 'ASK', 'MASTERDOWN', 'READONLY', 'NOREPLICAS'];

/**
 * The same, said by a cluster node from inside a script: a key the script reached is not on this node
 * now (its slot moved, or is being moved), or the cluster is down. The stores' scripts give no cause
 * for the first (see scripts.ts); should one arise, it passes once the move ends.
 */
const TRANSIENT_SCRIPT_REPLIES = ['Script attempted to access a non local key', 'while the cluster is down'];

/**
 * Everything but an error reply of the server is the connection's doing (refused, reset, closed, a
 * command timed out, a cluster with no reachable node or too many redirections); of the error replies,
 * only the transient ones. Any other error reply (a script error, a wrong argument) is a bug and
 * stays as it is.
 */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name !== 'ReplyError') return true;
  const { message } = error;
  return TRANSIENT_REPLIES.some((code) => message.startsWith(`${code} `) || message === code) || TRANSIENT_SCRIPT_REPLIES.some((text) => message.includes(text));
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
