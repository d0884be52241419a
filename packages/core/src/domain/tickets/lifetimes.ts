import type { TicketGrantingTicket } from './ticket.js';

/** Ticket lifetimes in seconds. Defaults follow Apereo CAS: TGT 8 h hard / 2 h idle, ST 10 s. */
export interface TicketLifetimes {
  readonly tgtMaxTimeToLiveSeconds: number;
  readonly tgtTimeToKillSeconds: number;
  readonly stTimeToLiveSeconds: number;
}

export const defaultTicketLifetimes: TicketLifetimes = {
  tgtMaxTimeToLiveSeconds: 8 * 60 * 60,
  tgtTimeToKillSeconds: 2 * 60 * 60,
  stTimeToLiveSeconds: 10,
};

/** Expiry of a TGT used at `now`: the idle window slides, the hard limit does not; a TGT of a hard timeout has no idle window. */
export function slidTgtExpiry(tgt: Pick<TicketGrantingTicket, 'hardExpiresAt' | 'hardTimeout'>, now: number, lifetimes: TicketLifetimes): number {
  return tgt.hardTimeout ? tgt.hardExpiresAt : Math.min(now + lifetimes.tgtTimeToKillSeconds * 1000, tgt.hardExpiresAt);
}
