import type { ReadinessCheck } from '@tessera/core';
import { redisDriver } from './driver.js';
import type { RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/**
 * Storage readiness on Redis: a PING, which changes nothing, to the server or to every master of a
 * cluster (a master down leaves its slots unserved). Each ping is bounded by the command timeout.
 */
export class RedisReadinessCheck implements ReadinessCheck {
  readonly name = 'storage';

  constructor(private readonly client: RedisClient) {}

  async check(): Promise<void> {
    if (!(this.client instanceof redisDriver().Cluster)) {
      await guarded(() => this.client.ping());
      return;
    }
    const masters = this.client.nodes('master');
    if (masters.length === 0) await guarded(() => Promise.reject(new Error('no master of the Redis Cluster is connected')));
    await Promise.all(masters.map((master) => guarded(() => master.ping())));
  }
}
