import { pino, type Bindings, type ChildLoggerOptions, type DestinationStream, type Level, type Logger, type LoggerOptions } from 'pino';
import { isDomainEvent, type DomainEvent, type DomainEventType, type EventSink, type ModuleEvent, type RequestOrigin } from '@tessera/core';
import type { ModuleEvents } from './events/module-events.js';
import { STANDARD_REDACTION, type Redaction } from './redaction.js';

export type LogLevel = Level | 'silent';

/**
 * JSON lines with an ISO time that keep secrets out, whatever code logs through them: every merged
 * object, error and message passes `redaction`, the one redaction step. The application log and the
 * audit trail share them. One walk does it all: pino's path-based redact, a second walk, doubled the
 * cost of every line on the request path.
 */
function safeJsonLines({ redacted, redactedError, redactedText }: Redaction) {
  return {
    timestamp: isoTime,
    formatters: { level: (label) => ({ level: label }), log: (object) => redacted(object) as Record<string, unknown> },
    // The log formatter above has turned every error into its redacted form already; this only keeps
    // pino's own error serializer from reading that form as an error of type Object.
    serializers: { err: (value: unknown) => (value instanceof Error ? redactedError(value) : value) },
    hooks: {
      logMethod(args, method) {
        // An error given alone would lend pino its raw message as the line's msg: hand over the redacted form.
        const safeArgs = args.map((arg) => (typeof arg === 'string' ? redactedText(arg) : arg instanceof Error ? { err: redactedError(arg) } : arg));
        method.apply(this, safeArgs as Parameters<typeof method>);
      },
    },
  } satisfies LoggerOptions;
}

/**
 * pino writing JSON lines to `destination` (stdout by default), redacted and without ticket ids.
 * `redaction`: the server's, which knows the secret request parameters its modules declare.
 */
export function createLogger(level: LogLevel, destination: DestinationStream = pino.destination({ dest: 1, sync: true }), redaction: Redaction = STANDARD_REDACTION): Logger {
  return withRedactedChildren(pino({ name: 'tessera', level, ...safeJsonLines(redaction) }, destination), redaction);
}

/** The audit trail's pino: the same safe JSON lines, with the `node` instead of pid and host name. */
export function createAuditLogger(destination: DestinationStream, node: string, redaction: Redaction = STANDARD_REDACTION): Logger {
  return withRedactedChildren(pino({ level: 'info', base: { node }, ...safeJsonLines(redaction) }, destination), redaction);
}

/** The redaction of each logger made here, for the lines written past pino's formatters (writeEventLine). */
const REDACTIONS = new WeakMap<object, Redaction>();

function redactionOf(logger: Logger): Redaction {
  return REDACTIONS.get(logger) ?? STANDARD_REDACTION;
}

/**
 * pino writes a child logger's bindings on each of its lines without the log formatter: they pass
 * the redaction when the child is made, and so on down for the child's own children. `makeChild` is
 * pino's own method, applied to each logger in turn (a child inherits its parent's properties).
 */
function withRedactedChildren<Levels extends string>(logger: Logger<Levels>, redaction: Redaction, makeChild = Reflect.get(logger, 'child') as Logger<Levels>['child']): Logger<Levels> {
  REDACTIONS.set(logger, redaction);
  logger.child = <ChildLevels extends string = never>(bindings: Bindings, options?: ChildLoggerOptions<ChildLevels>) =>
    withRedactedChildren(Reflect.apply(makeChild, logger, [redaction.redacted(bindings), options]) as Logger<Levels | ChildLevels>, redaction, makeChild);
  return logger;
}

const { streamSym, chindingsSym, needsMetadataGsym } = pino.symbols;

/**
 * Writes one line of domain-event fields at `level`, the same JSON line pino writes for
 * `logger[level](fields, msg)`: level label, time, the logger's bindings, the fields after
 * `redacted`, then `msg`. Built field by field from the redaction's JSON members, which remember
 * the members of values found clean (these lines are written for nearly every request, and repeat
 * most of their values), rather than by pino's serialiser or a redacted copy printed whole.
 * A destination that wants pino's metadata (a multistream), or fields JSON cannot write, take
 * pino's own path.
 */
export function writeEventLine(logger: Logger, level: Level, fields: Record<string, unknown>, msg?: string): void {
  if (!logger.isLevelEnabled(level)) return;
  const destination = Reflect.get(logger, streamSym) as DestinationStream & { [needsMetadataGsym]?: boolean };
  if (destination[needsMetadataGsym] === true) return writeThroughPino(logger, level, fields, msg);
  const { jsonMember, redactedText } = redactionOf(logger);
  let body = '';
  try {
    for (const key of Object.keys(fields)) {
      const member = jsonMember(key, fields[key]);
      if (member !== undefined) body += `,${member}`;
    }
  } catch {
    return writeThroughPino(logger, level, fields, msg);
  }
  const bindings = Reflect.get(logger, chindingsSym) as string;
  const message = msg === undefined ? '' : `,"msg":${JSON.stringify(redactedText(msg))}`;
  destination.write(`{"level":"${level}"${isoTime()}${bindings}${body}${message}}\n`);
}

function writeThroughPino(logger: Logger, level: Level, fields: Record<string, unknown>, msg: string | undefined): void {
  if (msg === undefined) logger[level](fields);
  else logger[level](fields, msg);
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

/** Core's events' levels; a module's events come at the level their declaration gives. */
const LEVELS: Record<DomainEventType, Level> = {
  'authentication.succeeded': 'info',
  'authentication.failed': 'warn',
  'authentication.refused': 'warn',
  'ticket.created': 'info',
  'ticket.refused': 'warn',
  'ticket.secondFactorSkipped': 'warn',
  'ticket.validated': 'info',
  'ticket.validation.failed': 'warn',
  'ticket.destroyed': 'info',
  'service.saved': 'info',
  'service.host.unpinned': 'warn',
  'server.error': 'error',
  'readiness.failed': 'warn',
  'request.unreadable': 'warn',
};

const LEVEL_RANK: Record<Level, number> = pino.levels.values as Record<Level, number>;

/** The events of one request kept for one line, until the request's current turn ends. */
interface PendingLine {
  readonly requestId: string;
  level: Level;
  readonly types: string[];
  readonly fields: Record<string, unknown>;
}

/**
 * Logs domain events and the modules' as JSON lines: `event` names it, its fields follow, then the `requestId` of the
 * request that caused it (when there was one), the same id as on the request's audit lines.
 * The events one request emits in one turn of the event loop (a login and the TGT it created) are
 * one line: `event` is the last, `events` lists them all, their fields merged (an event whose
 * fields would overwrite another's starts a line of its own), at the highest of their levels.
 * Nothing is built for an event below the configured level.
 * One of KEYS.EventSinks: the FanOutEventSink in front of it keeps a logger that throws (a full
 * disk, a closed pipe) from reaching the use case, as for the audit and metrics sinks; a line
 * written at the end of the turn swallows the throw itself.
 */
export class LoggingEventSink implements EventSink {
  private pending: PendingLine | undefined;
  private readonly writePending = () => {
    try {
      this.flush();
    } catch {
      // As the fan-out would: a broken log must not become an uncaught exception.
    }
  };

  /** `modules`: the modules' declared events, logged at their declared levels. */
  constructor(
    private readonly logger: Logger,
    private readonly modules: ModuleEvents,
  ) {}

  emit(event: DomainEvent | ModuleEvent, origin?: RequestOrigin): void {
    // A module's event nobody declared still reaches the log, as a warning.
    const level = isDomainEvent(event) ? LEVELS[event.type] : (this.modules.of(event.type)?.level ?? 'warn');
    if (!this.logger.isLevelEnabled(level)) return;
    const requestId = origin?.requestId;
    if (isDomainEvent(event) && event.type === 'server.error') {
      this.flush();
      this.logger.error({ event: event.type, context: event.context, err: event.error, ...(requestId !== undefined && { requestId }) }, `unexpected error in ${event.context}`);
      return;
    }
    const { type, ...fields } = event;
    const pending = this.pending;
    if (pending !== undefined && pending.requestId === requestId && !overwrites(pending.fields, fields)) {
      pending.types.push(type);
      Object.assign(pending.fields, fields);
      if (LEVEL_RANK[level] > LEVEL_RANK[pending.level]) pending.level = level;
      return;
    }
    this.flush();
    if (requestId === undefined) {
      writeEventLine(this.logger, level, { event: type, ...fields }, type);
      return;
    }
    this.pending = { requestId, level, types: [type], fields };
    process.nextTick(this.writePending);
  }

  private flush(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    const { requestId, level, types, fields } = pending;
    const last = types[types.length - 1]!;
    if (types.length === 1) writeEventLine(this.logger, level, { event: last, ...fields, requestId }, last);
    else writeEventLine(this.logger, level, { event: last, events: types, ...fields, requestId }, types.join(', '));
  }
}

/** Whether merging `fields` into `merged` would replace a value there by another. */
function overwrites(merged: Record<string, unknown>, fields: Record<string, unknown>): boolean {
  for (const key in fields) {
    if (key in merged && merged[key] !== fields[key]) return true;
  }
  return false;
}
