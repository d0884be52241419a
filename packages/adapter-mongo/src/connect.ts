import type { MongoClient, MongoClientOptions } from 'mongodb';
import { StoreUnavailableError } from '@tessera/core';
import { mongoDriver } from './driver.js';
import { isConnectivityError } from './unavailable.js';

export interface MongoConnection {
  readonly client: MongoClient;
  close(): Promise<void>;
}

/**
 * The driver's own limits, each `timeoutMs`: to find a server, to open a connection, to wait for a
 * pooled one, and to wait on a socket for a reply, so a primary that stops answering fails the
 * connection rather than holding it until the next heartbeat. Each bounds one step, and a retry runs
 * them again; the whole operation is bounded by the stores themselves (`createMongoStores`'s
 * `timeoutMs`), since this driver version accepts `timeoutMS` but ignores it. No `maxTimeMS` is sent:
 * the server may still finish an operation the client gave up on, as after any lost reply.
 */
export function mongoClientOptions(timeoutMs: number): MongoClientOptions {
  return { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs, waitQueueTimeoutMS: timeoutMs, socketTimeoutMS: timeoutMs };
}

/**
 * Connects and pings, so an unreachable database fails here, at start, within the timeout. The same
 * timeout bounds every later operation (see mongoClientOptions and createMongoStores), so requests
 * answer 503 promptly instead of hanging; the driver reconnects by itself when the database returns.
 */
export async function connectMongo(uri: string, timeoutMs: number): Promise<MongoConnection> {
  const client = new (mongoDriver().MongoClient)(uri, mongoClientOptions(timeoutMs));
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } catch (error) {
    await client.close().catch(() => undefined);
    if (!isConnectivityError(error)) throw error;
    throw new StoreUnavailableError(`cannot reach MongoDB within ${timeoutMs / 1000} s: ${(error as Error).message}`, { cause: error });
  }
  return { client, close: () => client.close() };
}
