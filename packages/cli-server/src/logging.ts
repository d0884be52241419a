import { pino, type DestinationStream, type Level, type Logger, type LoggerOptions } from 'pino';
import { ticketFingerprint, type DomainEvent, type DomainEventType, type EventSink, type RequestOrigin } from '@tessera/core';

export type LogLevel = Level | 'silent';

/** Second line of defence: values under these keys never reach a log, at any depth, whatever code logs them. */
const REDACTED_KEYS = new Set(['password', 'passwordHash', 'authorization']);

/** Whole ticket ids (bearer secrets) as they may appear inside any logged text. */
const TICKET_ID = /\b(?:TGT|ST|PT|PGT)-\d+-[A-Za-z0-9-]{8,}/g;
const MAX_DEPTH = 6;

/**
 * JSON lines with an ISO time that keep secrets out, whatever code logs through them: passwords and
 * authorization headers redacted, whole ticket ids replaced by fingerprints in every string. The
 * application log and the audit trail share them. One walk (scrub) does both: pino's path-based
 * redact, a second walk, doubled the cost of every line on the request path.
 */
const safeJsonLines = {
  timestamp: isoTime,
  formatters: { level: (label) => ({ level: label }), log: (object) => scrub(object, 0) as Record<string, unknown> },
  // Errors are already serialized (and scrubbed) by the log formatter above.
  serializers: { err: (value: unknown) => (value instanceof Error ? pino.stdSerializers.err(value) : value) },
  hooks: {
    logMethod(args, method) {
      method.apply(this, args.map((arg) => (typeof arg === 'string' ? withoutTicketIds(arg) : arg)) as Parameters<typeof method>);
    },
  },
} satisfies LoggerOptions;

/** pino writing JSON lines to `destination` (stdout by default), redacted and without ticket ids. */
export function createLogger(level: LogLevel, destination: DestinationStream = pino.destination({ dest: 1, sync: true })): Logger {
  return pino({ name: 'tessera', level, ...safeJsonLines }, destination);
}

/** The audit trail's pino: the same safe JSON lines, with the `node` instead of pid and host name. */
export function createAuditLogger(destination: DestinationStream, node: string): Logger {
  return pino({ level: 'info', base: { node }, ...safeJsonLines }, destination);
}

let lastMillis = -1;
let lastTime = '';

/** pino's `,"time":"<ISO-8601>"`, formatted once per millisecond: a busy server writes many lines in each. */
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMillis) {
    lastMillis = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

function withoutTicketIds(text: string): string {
  // Every ticket prefix ends in "T-": text without it (nearly all) skips the regular expression.
  return text.includes('T-') ? text.replace(TICKET_ID, (id) => ticketFingerprint(id)) : text;
}

/**
 * The value with secrets taken out, copied only where something was taken out: events are logged on
 * every request, and they hold fingerprints already, so almost every line goes through untouched.
 */
function scrub(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return withoutTicketIds(value);
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return scrub({ ...pino.stdSerializers.err(value) }, depth + 1);
  if (Array.isArray(value)) return scrubList(value, depth);
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    const safe = REDACTED_KEYS.has(key) ? '[redacted]' : scrub(item, depth + 1);
    if (safe !== item) (copy ??= { ...value })[key] = safe;
  }
  return copy ?? value;
}

function scrubList(list: readonly unknown[], depth: number): unknown {
  let copy: unknown[] | undefined;
  list.forEach((item, index) => {
    const safe = scrub(item, depth + 1);
    if (safe !== item) (copy ??= [...list])[index] = safe;
  });
  return copy ?? list;
}

const LEVELS: Record<DomainEventType, Level> = {
  'authentication.succeeded': 'info',
  'authentication.failed': 'warn',
  'authentication.throttled': 'warn',
  'otp.reused': 'warn',
  'x509.certificate.ignored': 'warn',
  'authentication.refused': 'warn',
  'ticket.created': 'info',
  'ticket.refused': 'warn',
  'ticket.validated': 'info',
  'ticket.validation.failed': 'warn',
  'ticket.destroyed': 'info',
  'service.saved': 'info',
  'service.refused': 'warn',
  'login.token.refused': 'warn',
  'logout.request.delivered': 'info',
  'logout.request.failed': 'warn',
  'server.error': 'error',
  'readiness.failed': 'warn',
};

/**
 * Logs each domain event as one JSON line: `event` names it, its fields follow, then the `requestId`
 * of the request that caused it (when there was one), the same id as on the request's audit lines.
 * One of TOKENS.EventSinks: the FanOutEventSink in front of it keeps a logger that throws (a full
 * disk, a closed pipe) from reaching the use case, as for the audit and metrics sinks.
 */
export class LoggingEventSink implements EventSink {
  constructor(private readonly logger: Logger) {}

  emit(event: DomainEvent, origin?: RequestOrigin): void {
    const request = origin && { requestId: origin.requestId };
    if (event.type === 'server.error') {
      this.logger.error({ event: event.type, context: event.context, err: event.error, ...request }, `unexpected error in ${event.context}`);
      return;
    }
    const { type, ...fields } = event;
    this.logger[LEVELS[type]]({ event: type, ...fields, ...request }, type);
  }
}
