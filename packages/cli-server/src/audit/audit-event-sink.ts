import type { Logger } from 'pino';
import type { DomainEvent, EventSink, ModuleEvent, RequestOrigin } from '@tessera/core';
import type { ModuleEvents } from '../events/module-events.js';
import { writeEventLine } from '../logging.js';
import { auditRecordOf } from './audit-record.js';

/**
 * Writes the audit trail: one JSON line per action of a client, with who did it, from which address,
 * in which request and with what outcome. Failures are written at `warn`, so a shipper can alert on them.
 */
export class AuditEventSink implements EventSink {
  /** `modules`: the modules' declared events, recorded as they declare. */
  constructor(
    private readonly logger: Logger,
    private readonly modules: ModuleEvents,
  ) {}

  emit(event: DomainEvent | ModuleEvent, origin?: RequestOrigin): void {
    const record = auditRecordOf(event, this.modules);
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
