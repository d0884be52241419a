import { MongoClient } from 'mongodb';
import { StoreUnavailableError } from '@tessera/core';
import { isConnectivityError } from './unavailable.js';

export interface MongoConnection {
  readonly client: MongoClient;
  close(): Promise<void>;
}

/**
 * Connects and pings, so an unreachable database fails here, at start, within the timeout. The
 * same timeout bounds every later operation while the database is away, so requests answer 503
 * promptly instead of hanging; the driver reconnects by itself when it returns.
 */
export async function connectMongo(uri: string, timeoutMs: number): Promise<MongoConnection> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs });
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
