import { TicketValidationError, type CasFailureCode } from '../../domain/errors.js';
import type { RequestOrigin, TicketRefusalReason } from '../../domain/events.js';
import { principalMeetsRequirements } from '../../domain/registry/service-matcher.js';
import { ticketFingerprint } from '../../domain/tickets/fingerprint.js';
import { ticketTimeToLiveSeconds, ticketUses } from '../../domain/registry/ticket-expiration.js';
import { slidTgtExpiry } from '../../domain/tickets/lifetimes.js';
import type { ProxyTicket } from '../../domain/tickets/ticket.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { TicketStore } from '../../ports/ticket-store.js';
import type { CasCore } from '../../use-cases/cas-core.js';
import { clipForEcho } from '../../use-cases/validate-service-ticket.js';
import { allowsProxyCallback } from './proxy-policy.js';

export interface GrantProxyTicketInput {
  readonly pgt: string | undefined;
  readonly targetService: string | undefined;
  readonly origin?: RequestOrigin;
}

/**
 * `GET /proxy` (CAS protocol 3.0 §2.7): a live PGT gets a one-time PT for a target service. The
 * proxying service must still be allowed to proxy to the PGT's callback URL; the target must be
 * registered, enabled, take part in single sign-on and accept the principal. A PT counts as a use of
 * the login session (its TGT's idle timer restarts) and lives as long as an ST; once validated it is
 * recorded like an ST with the session listener (single logout tells the target service too).
 */
export class GrantProxyTicket {
  constructor(
    private readonly core: CasCore,
    private readonly tickets: TicketStore,
    private readonly events: EventSink,
  ) {}

  async execute({ pgt: pgtId, targetService: url, origin }: GrantProxyTicketInput): Promise<ProxyTicket> {
    if (!pgtId || !url) throw new TicketValidationError('INVALID_REQUEST', "'pgt' and 'targetService' parameters are both required");
    const refuse = (reason: TicketRefusalReason, code: CasFailureCode, message: string, principal?: string): never => {
      this.events.emit({ type: 'ticket.refused', kind: 'PT', reason, service: url, ticket: ticketFingerprint(pgtId), ...(principal !== undefined && { principal }) }, origin);
      throw new TicketValidationError(code, message);
    };
    const unknown = `Ticket '${clipForEcho(pgtId)}' not recognized`;

    const pgt = await this.tickets.get(pgtId);
    if (pgt?.kind !== 'PGT') return refuse('PGT_NOT_FOUND', 'INVALID_TICKET', unknown);
    const session = await this.tickets.get(pgt.tgtId);
    if (session?.kind !== 'TGT') return refuse('TGT_NOT_FOUND', 'INVALID_TICKET', unknown);
    const principal = session.authentication.principal;
    const refuseService = (reason: TicketRefusalReason, message: string): never => refuse(reason, 'UNAUTHORIZED_SERVICE', message, principal.id);

    // The proxy's definition as it is now: it may have been removed, or its policy narrowed.
    const { relyingParties, clock, ids, lifetimes } = this.core;
    const proxying = await relyingParties.find(pgt.service, origin);
    if (!proxying || !allowsProxyCallback(proxying, pgt.proxies[0] ?? '')) refuseService('PROXY_NOT_ALLOWED', 'The proxying service is no longer allowed to proxy');
    const target = await relyingParties.find(url, origin);
    if (!target) return refuseService('SERVICE_NOT_AUTHORIZED', 'The target service is not registered or not enabled');
    if (!target.accessStrategy.ssoEnabled) refuseService('SSO_NOT_ALLOWED', 'The target service does not take part in single sign-on, so it accepts no proxy tickets');
    if (!principalMeetsRequirements(target, principal)) refuseService('PRINCIPAL_NOT_ALLOWED', 'The target service is not authorized to use CAS for this user');

    const now = clock.now();
    const tgt = await this.tickets.touch(session.id, slidTgtExpiry(session, now, lifetimes));
    // It expired or was destroyed since it was read.
    if (!tgt) return refuse('TGT_NOT_FOUND', 'INVALID_TICKET', unknown, principal.id);
    const pt: ProxyTicket = {
      kind: 'PT',
      id: ids.next('PT', tgt.id),
      tgtId: tgt.id,
      grantedBy: pgt.id,
      service: url,
      proxies: pgt.proxies,
      authenticatedAt: tgt.authentication.authenticatedAt,
      createdAt: now,
      expiresAt: now + ticketTimeToLiveSeconds(target.proxyTicketExpiration, lifetimes.stTimeToLiveSeconds) * 1000,
      ...ticketUses(target.proxyTicketExpiration),
    };
    await this.tickets.save(pt);
    this.events.emit({ type: 'ticket.created', kind: 'PT', ticket: ticketFingerprint(pt.id), principal: principal.id, service: url, ...(pgt.proxies[0] !== undefined && { proxy: pgt.proxies[0] }) }, origin);
    return pt;
  }
}
