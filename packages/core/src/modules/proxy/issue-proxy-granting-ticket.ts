import type { RequestOrigin, TicketRefusalReason } from '../../domain/events.js';
import { ticketFingerprint } from '../../domain/tickets/fingerprint.js';
import type { ProxyGrantingTicket } from '../../domain/tickets/ticket.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { TicketStore } from '../../ports/ticket-store.js';
import type { CasCore } from '../../use-cases/cas-core.js';
import type { ValidatedServiceTicket } from '../../use-cases/validate-service-ticket.js';
import type { ProxyCallbackFailedEvent } from './events.js';
import type { ProxyCallback } from './proxy-callback.js';
import { allowsProxyCallback, isHttpsUrl } from './proxy-policy.js';

export interface IssueProxyGrantingTicketInput {
  /** A validation that succeeded: its ticket is used up, its service is the would-be proxy. */
  readonly validated: ValidatedServiceTicket;
  /** The proxy callback URL the validation request named. */
  readonly pgtUrl: string;
  readonly origin?: RequestOrigin;
}

/**
 * `pgtUrl` on a validation (CAS protocol 3.0 §2.5.4): when the validated service's proxy policy allows
 * the URL, a PGT is stored and delivered to the URL with its IOU; the validation answer then names the
 * IOU. A URL refused, or a callback that does not take the PGT, leaves the answer without one (and the
 * PGT is removed again): the validation itself still succeeds. The PGT speaks for the proxy chain of
 * the validated ticket with this URL in front, belongs to its login session and lives as long as it.
 */
export class IssueProxyGrantingTicket {
  constructor(
    private readonly core: CasCore,
    private readonly tickets: TicketStore,
    private readonly callback: ProxyCallback,
    private readonly events: EventSink,
  ) {}

  /** The PGT IOU for the answer, or undefined when no PGT was delivered. */
  async execute({ validated, pgtUrl, origin }: IssueProxyGrantingTicketInput): Promise<string | undefined> {
    const { ticket, tgt } = validated;
    const principal = tgt.authentication.principal.id;
    const about = { service: ticket.service, principal, ticket: ticketFingerprint(ticket.id), proxy: pgtUrl };
    const refuse = (reason: TicketRefusalReason): undefined => {
      this.events.emit({ type: 'ticket.refused', kind: 'PGT', reason, ...about }, origin);
      return undefined;
    };
    if (!isHttpsUrl(pgtUrl)) return refuse('CALLBACK_NOT_HTTPS');
    if (!allowsProxyCallback(validated.service, pgtUrl)) return refuse('PROXY_NOT_ALLOWED');

    const now = this.core.clock.now();
    const ownLifetime = validated.service.proxyGrantingTicketExpiration?.maxTimeToLiveInSeconds;
    const pgt: ProxyGrantingTicket = {
      kind: 'PGT',
      id: this.core.ids.next('PGT', tgt.id),
      tgtId: tgt.id,
      service: ticket.service,
      proxies: [pgtUrl, ...validated.proxies],
      createdAt: now,
      // Never past its session's hard limit (nor past its service's own PGT lifetime); the session's idle limit applies through the TGT.
      expiresAt: ownLifetime === undefined ? tgt.hardExpiresAt : Math.min(now + ownLifetime * 1000, tgt.hardExpiresAt),
    };
    const pgtIou = this.core.ids.nextIou();
    // Stored first: the proxy may ask for a PT the moment it holds the PGT and the answer.
    await this.tickets.save(pgt);
    const outcome = await this.callback.deliver({ url: pgtUrl, pgtId: pgt.id, pgtIou });
    if (!outcome.delivered) {
      await this.tickets.remove(pgt.id);
      const { reason, status } = outcome;
      this.events.emit({ type: 'proxy.callback.failed', ...about, reason, ...(status !== undefined && { status }) } satisfies ProxyCallbackFailedEvent, origin);
      return undefined;
    }
    this.events.emit({ type: 'ticket.created', kind: 'PGT', ticket: ticketFingerprint(pgt.id), principal, service: ticket.service, proxy: pgtUrl }, origin);
    return pgtIou;
  }
}
