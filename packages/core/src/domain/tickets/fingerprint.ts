import { hash } from 'node:crypto';

const KIND_AND_COUNTER = /^([A-Z]{2,3}-\d{1,12})-/;

/**
 * A loggable stand-in for a ticket id: its kind and counter, plus a short hash of the whole id.
 * Whole ids are bearer secrets and never reach a log.
 */
export function ticketFingerprint(id: string): string {
  const visible = KIND_AND_COUNTER.exec(id)?.[1] ?? 'ticket';
  // One-shot hashing: every ticket event and every logged line fingerprints ids on the request path.
  return `${visible}#${hash('sha256', id, 'hex').slice(0, 12)}`;
}
