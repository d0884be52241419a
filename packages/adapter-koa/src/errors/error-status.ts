import type { ErrorCode } from '@tessera/core';
import type { HttpOptions } from '../http-options.js';

type StatusRule = number | ((options: HttpOptions) => number);

/** The only table from core error codes to HTTP statuses (docs/protocol.md §3). */
const STATUS_BY_CODE: Readonly<Record<ErrorCode, StatusRule>> = {
  INVALID_REQUEST: 400,
  NO_CREDENTIALS: 400,
  AUTHENTICATION_FAILED: (options) => (options.restRevision === 'earlier' ? 400 : 401),
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  TICKET_NOT_FOUND: 404,
  SERVICE_NOT_AUTHORIZED: 403,
  TICKET_VALIDATION_FAILED: (options) => options.validationFailureStatus,
  INVALID_SERVICE_DEFINITION: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  ROUTE_NOT_FOUND: 404,
  STORE_UNAVAILABLE: 503,
  STORE_CAPACITY_EXCEEDED: 503,
  INVALID_CONFIGURATION: 500,
  INVALID_TOKEN: 401,
  THROTTLED: 423,
  RATE_LIMITED: 429,
};

/** Status of anything that is not a TesseraError: a bug or an outage, never the client's fault. */
export const UNEXPECTED_ERROR_STATUS = 500;

export function statusOf(code: ErrorCode, options: HttpOptions): number {
  const rule = STATUS_BY_CODE[code];
  return typeof rule === 'number' ? rule : rule(options);
}
