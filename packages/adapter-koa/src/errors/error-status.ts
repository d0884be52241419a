import type { ErrorCode } from '@tessera/core';
import type { HttpOptions } from '../http-options.js';

/**
 * The revision of the REST protocol a route speaks: `earlier` answers bad credentials with 400
 * instead of 401, as CAS 4.x did. The module that owns the REST ticket routes says which revision
 * they speak; every other route speaks the current one.
 */
export type RestRevision = 'current' | 'earlier';

/** What statuses depend on: the settings, and the revision of the route that answers (current when none). */
export type StatusSettings = Pick<HttpOptions, 'validationFailureStatus'> & { readonly restRevision?: RestRevision };

type StatusRule = number | ((settings: StatusSettings) => number);

/** The only table from core error codes to HTTP statuses (docs/protocol.md §3). */
const STATUS_BY_CODE: Readonly<Record<ErrorCode, StatusRule>> = {
  INVALID_REQUEST: 400,
  NO_CREDENTIALS: 400,
  AUTHENTICATION_FAILED: (settings) => (settings.restRevision === 'earlier' ? 400 : 401),
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  TICKET_NOT_FOUND: 404,
  SERVICE_NOT_AUTHORIZED: 403,
  TICKET_VALIDATION_FAILED: (settings) => settings.validationFailureStatus,
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

export function statusOf(code: ErrorCode, settings: StatusSettings): number {
  const rule = STATUS_BY_CODE[code];
  return typeof rule === 'number' ? rule : rule(settings);
}
