import type { Logger } from 'pino';
import type { RequestOrigin } from '@tessera/adapter-koa';
import type { DomainEvent, EventSink } from '@tessera/core';
import { auditRecordOf } from './audit-record.js';

/** Where the request being served comes from (adapter-koa's currentRequest); undefined outside one. */
export type OriginOf = () => RequestOrigin | undefined;

/**
 * Writes the audit trail: one JSON line per action of a client, with who did it, from which address,
 * in which request and with what outcome. Failures are written at `warn`, so a shipper can alert on them.
 */
export class AuditEventSink implements EventSink {
  constructor(
    private readonly logger: Logger,
    private readonly originOf: OriginOf,
  ) {}

  emit(event: DomainEvent): void {
    const record = auditRecordOf(event);
    if (!record) return;
    const origin = this.originOf();
    const line = {
      audit: record.audit,
      action: record.action,
      outcome: record.outcome,
      who: record.who,
      address: origin?.clientAddress,
      requestId: origin?.requestId,
      endpoint: origin?.route === undefined ? undefined : `${origin.method} ${origin.route}`,
      ...record.details,
    };
    if (record.outcome === 'failure') this.logger.warn(line);
    else this.logger.info(line);
  }
}
