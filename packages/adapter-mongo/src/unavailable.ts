import { StoreUnavailableError } from '@tessera/core';
import { mongoDriver } from './driver.js';

/** Driver errors that mean "the database cannot be reached now"; the driver reconnects by itself. */
const connectivityErrors = () => {
  const { MongoNetworkError, MongoServerSelectionError, MongoOperationTimeoutError, MongoTopologyClosedError, MongoNotConnectedError, MongoStalePrimaryError } = mongoDriver();
  return [MongoNetworkError, MongoServerSelectionError, MongoOperationTimeoutError, MongoTopologyClosedError, MongoNotConnectedError, MongoStalePrimaryError];
};

/**
 * Server answers that mean "not now" rather than "wrong": the driver retries once, and if they persist
 * the request gets 503 (retry later) rather than 500. By code and by name, since the name of a code can
 * change between server versions (64 is WriteConcernFailed before 8.1, WriteConcernTimeout since).
 */
const UNAVAILABLE: ReadonlyArray<readonly [code: number, ...names: string[]]> = [
  // A failover or shutdown (the SDAM spec's "not writable primary" and "node is recovering" codes).
  [10107, 'NotWritablePrimary'],
  [13435, 'NotPrimaryNoSecondaryOk'],
  [13436, 'NotPrimaryOrSecondary'],
  [11602, 'InterruptedDueToReplStateChange'],
  [189, 'PrimarySteppedDown'],
  [91, 'ShutdownInProgress'],
  [11600, 'InterruptedAtShutdown'],
  // A mongos or a replica set member that cannot reach a shard or the primary behind it.
  [6, 'HostUnreachable'],
  [7, 'HostNotFound'],
  [89, 'NetworkTimeout'],
  [9001, 'SocketException'],
  [262, 'ExceededTimeLimit'],
  [133, 'FailedToSatisfyReadPreference'],
  [134, 'ReadConcernMajorityNotAvailableYet'],
  // The write was not replicated in time: its outcome is not known, so it is not to be trusted as done.
  [64, 'WriteConcernTimeout', 'WriteConcernFailed'],
];
const UNAVAILABLE_CODES = new Set(UNAVAILABLE.map(([code]) => code));
const UNAVAILABLE_NAMES = new Set(UNAVAILABLE.flatMap(([, ...names]) => names));

/** A server's code and name, on an error itself or on the `writeConcernError` its reply carried. */
interface ServerAnswer {
  code?: unknown;
  codeName?: unknown;
}

function unavailableAnswer(answer: ServerAnswer | undefined): boolean {
  if (answer === undefined || answer === null) return false;
  return (typeof answer.code === 'number' && UNAVAILABLE_CODES.has(answer.code)) || (typeof answer.codeName === 'string' && UNAVAILABLE_NAMES.has(answer.codeName));
}

/**
 * Whether the error means the database cannot serve now. A write concern error comes as a
 * MongoWriteConcernError (a MongoServerError with the code of its `writeConcernError`), or inside a
 * failed command's reply as `writeConcernError` next to the command's own code; either counts.
 */
export function isConnectivityError(error: unknown): boolean {
  if (error instanceof mongoDriver().MongoServerError) return unavailableAnswer(error) || unavailableAnswer(error.writeConcernError);
  return connectivityErrors().some((type) => error instanceof type);
}

/** A lost database as core's StoreUnavailableError (503, retry later); anything else (a duplicate id, a bug) as it is. */
function asUnavailable(error: unknown): unknown {
  if (!isConnectivityError(error)) return error;
  return new StoreUnavailableError('The ticket and service database (MongoDB) cannot be reached; try again shortly', { cause: error });
}

/** Runs one database call of a store, with its errors mapped and within its time limit. */
export type Guarded = <T>(operation: () => Promise<T>) => Promise<T>;

/**
 * Database calls that give up after `timeoutMs`, however long the driver would go on (finding a server,
 * waiting for a pooled connection, for a reply, then all of it again for its one retry): the request
 * gets StoreUnavailableError, with a MongoOperationTimeoutError as the cause, and the call's own outcome
 * is dropped. A write given up may still be applied, as with any timeout. The driver cannot do this
 * itself: 7.x accepts `timeoutMS` but ignores it.
 */
export function guardedWithin(timeoutMs: number): Guarded {
  return async <T>(operation: () => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new (mongoDriver().MongoOperationTimeoutError)(`MongoDB did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    const call = new Promise<T>((resolve) => resolve(operation()));
    call.catch(() => undefined); // a failure after the deadline has no one left to tell
    try {
      return await Promise.race([call, deadline]);
    } catch (error) {
      throw asUnavailable(error);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** A database call with its errors mapped and no time limit of its own: for a caller that bounds it (the readiness ping). */
export async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asUnavailable(error);
  }
}
