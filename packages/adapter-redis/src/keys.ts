import { sessionTag, sessionTagOfGrantedTicket } from '@tessera/core';

/**
 * Where each record lives, every name after the configured prefix. A TGT, the tickets granted under
 * it (STs, PGTs and their PTs) and the index of those share one hash tag (`{<session tag>}`), so on a
 * Redis Cluster they live in one hash slot, on one node: a logout's commands go to that node alone.
 * No command names two of them, though: while a slot is being moved its keys sit on both nodes, and a
 * command over several keys of it is refused until the move ends (see scripts.ts). A granted ticket's
 * tag comes from its id (core puts its TGT's session tag there), so `consume` needs nothing but the id.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  /** The hash of a ticket; undefined for an id no ticket can have (neither a TGT's nor a granted ticket's shape). */
  ticket(id: string): string | undefined {
    const tag = id.startsWith('TGT-') ? sessionTag(id) : sessionTagOfGrantedTicket(id);
    return tag === undefined ? undefined : `${this.prefix}ticket:{${tag}}:${id}`;
  }

  /** The sorted set of the tickets granted under a TGT (member: ticket id, score: its expiresAt), in the TGT's slot. */
  descendants(tgtId: string): string {
    return `${this.prefix}sts:{${sessionTag(tgtId)}}:${tgtId}`;
  }

  /** Live TGT ids scored by expiresAt, for the tessera_tgts_live gauge only. */
  get liveTgts(): string {
    return `${this.prefix}tgts`;
  }

  /** A user's hash (`passwordHash` or `password`, `attributes`, `otpSecret`, `requireOtp`): the username exactly as given. */
  user(username: string): string {
    return `${this.prefix}user:${username}`;
  }

  /**
   * A record of a RecordStores namespace: a hash of `value` (JSON), `version`, `expiresAt` and, when
   * it has them, `group` and `dueAt`. Namespace names hold no `:`, so no two (namespace, id) pairs share a key.
   */
  record(namespace: string, id: string): string {
    return `${this.prefix}rec:${namespace}:${id}`;
  }

  /** The ids of a namespace's records in one group, each scored by (at least) its record's expiresAt. */
  recordGroup(namespace: string, group: string): string {
    return `${this.prefix}rec-group:${namespace}:${group}`;
  }

  /** The ids of a namespace's records with a due time, scored by it. */
  recordsDue(namespace: string): string {
    return `${this.prefix}rec-due:${namespace}`;
  }

  /** One hash of every service definition (field: id, value: JSON), read whole by `list`. */
  get services(): string {
    return `${this.prefix}services`;
  }
}
