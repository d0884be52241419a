import type { Logger } from 'pino';
import type { DomainEvent, EventSink, RequestOrigin } from '@tessera/core';
import { writeEventLine } from '../logging.js';
import { auditRecordOf } from './audit-record.js';

/**
 * Writes the audit trail: one JSON line per action of a client, with who did it, from which address,
 * in which request and with what outcome. Failures are written at `warn`, so a shipper can alert on them.
 */
export class AuditEventSink implements EventSink {
  constructor(private readonly logger: Logger) {}

  emit(event: DomainEvent, origin?: RequestOrigin): void {
    const record = auditRecordOf(event);
    if (!record) return;
    const line = {
      audit: record.audit,
      action: record.action,
      outcome: record.outcome,
      who: record.who,
      address: origin?.clientAddress,
      requestId: origin?.requestId,
      endpoint: origin?.endpoint,
      ...record.details,
    };
    writeEventLine(this.logger, record.outcome === 'failure' ? 'warn' : 'info', line);
  }
}
