import type { Clock } from '@tessera/core';
import type { ServiceSession, ServiceSessionStore } from '@tessera/core/modules/login';
import type { RedisKeys } from './keys.js';
import { runScript, type RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/**
 * How long a TGT's sessions are kept after its last known expiry: the expiry job takes them long
 * before (it runs every minute or so), so this only collects records of a job that no longer runs.
 */
export const SERVICE_SESSION_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Single-logout records in Redis, shared by every node: a list of sessions per TGT, and one sorted
 * set of check times (member: TGT id) that `due` reads. Each step is one command or one script on
 * one key, so on a cluster the list (in its TGT's slot) and the index may live on different nodes. An
add appends and trims the list in one script, so concurrent adds keep exactly the newest sessions.
 * Their order makes the gap between them harmless: `add` pushes before it indexes, `take` removes
 * the list before the index entry, so an index entry without a list only costs a `take` of nothing,
 * and a list is never left unindexed.
 */
export class RedisServiceSessionStore implements ServiceSessionStore {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
  ) {}

  async add(tgtId: string, session: ServiceSession, checkAt: number, limit: number): Promise<readonly ServiceSession[]> {
    const list = this.keys.serviceSessions(tgtId);
    const dropped = await guarded(async () => {
      const removed = (await runScript(this.client, 'tesseraPushCapped', [list], [JSON.stringify(session), limit, this.retentionMs(checkAt)])) as string[];
      await this.client.zadd(this.keys.serviceSessionsDue, 'GT', checkAt, tgtId);
      return removed;
    });
    return dropped.map((json) => JSON.parse(json) as ServiceSession);
  }

  async take(tgtId: string): Promise<readonly ServiceSession[]> {
    const taken = await guarded(async () => {
      const sessions = (await runScript(this.client, 'tesseraTakeList', [this.keys.serviceSessions(tgtId)], [])) as string[];
      await this.client.zrem(this.keys.serviceSessionsDue, tgtId);
      return sessions;
    });
    return taken.map((json) => JSON.parse(json) as ServiceSession);
  }

  due(now: number, limit: number): Promise<readonly string[]> {
    return guarded(() => this.client.zrangebyscore(this.keys.serviceSessionsDue, '-inf', now, 'LIMIT', 0, limit));
  }

  async postpone(tgtId: string, checkAt: number): Promise<void> {
    const list = this.keys.serviceSessions(tgtId);
    await guarded(async () => {
      // XX: only a TGT that has a record; GT: only later.
      await this.client.zadd(this.keys.serviceSessionsDue, 'XX', 'GT', checkAt, tgtId);
      await this.client.pexpire(list, this.retentionMs(checkAt), 'GT');
    });
  }

  /** Relative to this node's clock, as every time the stores write. */
  private retentionMs(checkAt: number): number {
    return Math.max(0, checkAt - this.clock.now()) + SERVICE_SESSION_RETENTION_MS;
  }
}
