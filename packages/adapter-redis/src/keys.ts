import { sessionTag, sessionTagOfServiceTicket } from '@tessera/core';

/**
 * Where each record lives, every name after the configured prefix. A TGT, its STs and the index of
 * its STs share one hash tag (`{<session tag>}`), so on a Redis Cluster they live in one hash slot
 * and every step touching several of them is one script on one node. An ST's tag comes from its id
 * (core puts its TGT's session tag there), so `consume` needs nothing but the id.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  /** The hash of a ticket; undefined for an id no ticket can have (neither a TGT's nor an ST's shape). */
  ticket(id: string): string | undefined {
    const tag = id.startsWith('TGT-') ? sessionTag(id) : sessionTagOfServiceTicket(id);
    return tag === undefined ? undefined : `${this.ticketsOf(tag)}${id}`;
  }

  /** The sorted set of the STs a TGT granted (member: ST id, score: its expiresAt), in the TGT's slot. */
  descendants(tgtId: string): string {
    return `${this.prefix}sts:{${sessionTag(tgtId)}}:${tgtId}`;
  }

  /** What ticket keys of one session tag start with: the descendants script builds ST keys from it. */
  ticketsOf(tag: string): string {
    return `${this.prefix}ticket:{${tag}}:`;
  }

  /** Live TGT ids scored by expiresAt, for the tessera_tgts_live gauge only. */
  get liveTgts(): string {
    return `${this.prefix}tgts`;
  }

  throttle(key: string): string {
    return `${this.prefix}throttle:${key}`;
  }

  requestRate(key: string): string {
    return `${this.prefix}rate:${key}`;
  }

  otpStep(username: string): string {
    return `${this.prefix}otp:${username}`;
  }

  /** One hash of every service definition (field: id, value: JSON), read whole by `list`. */
  get services(): string {
    return `${this.prefix}services`;
  }
}
