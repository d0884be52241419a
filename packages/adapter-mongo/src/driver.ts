import { createRequire } from 'node:module';
import type * as Driver from 'mongodb';

type MongoDriver = typeof Driver;

const requireDriver = createRequire(import.meta.url);
let loaded: MongoDriver | undefined;

/**
 * The MongoDB driver, loaded at its first use (a connection, or an error to classify) rather than with
 * this package: a server on another storage never loads it. It is CommonJS, so it loads synchronously,
 * and is the one instance every importer of `mongodb` shares.
 */
export function mongoDriver(): MongoDriver {
  return (loaded ??= requireDriver('mongodb') as MongoDriver);
}
