import { TicketValidationError, type ErrorCode, type EventSink } from '@tessera/core';
import type { Next } from 'koa';
import type { RouterContext } from '@koa/router';
import { statusOf, UNEXPECTED_ERROR_STATUS } from '../errors/error-status.js';
import { toTesseraError } from '../errors/normalize-error.js';
import { failureHeaderSchema, setFailureHeaders } from '../errors/failure-headers.js';
import { reportServerError } from '../errors/report.js';
import type { HttpOptions } from '../http-options.js';
import type { FailureRendering, RouteErrors } from '../routes/route.js';
import type { ValidationFailure, ValidationView } from './validation-views.js';

const INTERNAL_ERROR_DESCRIPTION = 'The server could not validate the ticket';

/** What every validation endpoint may answer besides its success. */
export const VALIDATION_ERRORS: RouteErrors = {
  TICKET_VALIDATION_FAILED: 'Validation failed: INVALID_REQUEST (a parameter missing), INVALID_TICKET, INVALID_SERVICE or UNAUTHORIZED_SERVICE.',
  STORE_UNAVAILABLE: 'INTERNAL_ERROR: a store the server depends on is unavailable.',
};

/**
 * The validation routes' renderer: whatever goes wrong, the answer is a CAS failure document.
 * Protocol failures carry their CAS code with `validationFailureStatus`; a request the server cannot
 * read, or one over the request-rate limit, is INVALID_REQUEST with its own status (405, 413, 415, 429); anything else is INTERNAL_ERROR,
 * reported and never echoed, with status 500 (or 200 for clients that need Apereo's always-200).
 */
export function renderValidationFailures(options: HttpOptions, events: EventSink, view: Pick<ValidationView, 'failure'>) {
  return async function renderValidationFailures(ctx: RouterContext, next: Next) {
    try {
      await next();
    } catch (thrown) {
      const error = toTesseraError(thrown);
      const status = error ? statusOf(error.code, options) : UNEXPECTED_ERROR_STATUS;
      let failure: ValidationFailure;
      if (error instanceof TicketValidationError) {
        failure = { code: error.casCode, description: error.message };
      } else if (error && status < 500) {
        failure = { code: 'INVALID_REQUEST', description: error.message };
      } else {
        reportServerError(events, thrown, ctx);
        failure = { code: 'INTERNAL_ERROR', description: INTERNAL_ERROR_DESCRIPTION };
      }
      ctx.status = validationStatus(status, options);
      setFailureHeaders(ctx, error);
      view.failure(ctx, failure);
    }
  };
}

/** Server faults answer 200 too where clients need Apereo's always-200. */
function validationStatus(status: number, options: HttpOptions): number {
  return status >= 500 && options.validationFailureStatus === 200 ? 200 : status;
}

/** What renderValidationFailures answers, for the document: the view's failure document at the status above. */
export function validationFailures(options: HttpOptions, view: Pick<ValidationView, 'failureContent'>): FailureRendering {
  return {
    statusOf: (code: ErrorCode) => validationStatus(statusOf(code, options), options),
    response(code) {
      const headers = failureHeaderSchema(code);
      return headers ? { content: view.failureContent, headers } : { content: view.failureContent };
    },
  };
}
