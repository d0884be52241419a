import { MethodNotAllowedError, RateLimitedError, ThrottledError, UnauthenticatedError, type ErrorCode, type TesseraError } from '@tessera/core';
import type { Context } from 'koa';
import { z } from 'zod';

/** The challenge of endpoints that take HTTP Basic credentials (/v1/services). */
const BASIC_CHALLENGE = 'Basic realm="tessera"';

/** A header a failure carries: documented by `schema`, written with the value the error holds. */
interface FailureHeader {
  readonly schema: z.ZodObject;
  values(error: TesseraError): Readonly<Record<string, string>>;
}

type ErrorClass<E extends TesseraError> = abstract new (...args: never[]) => E;

function failureHeader<E extends TesseraError>(type: ErrorClass<E>, name: string, description: string, value: (error: E) => string): FailureHeader {
  return {
    schema: z.object({ [name]: z.string().meta({ description }) }),
    values: (error) => (error instanceof type ? { [name]: value(error) } : {}),
  };
}

const RETRY_AFTER = 'Seconds to wait before trying again.';

/**
 * The headers failures carry, by core error code: the one place they are declared. The OpenAPI document
 * shows each on every route declaring that error (failureHeaderSchema), and every route family's
 * renderer writes them from the error it catches (setFailureHeaders), whatever it puts in the body.
 */
const FAILURE_HEADERS: Partial<Readonly<Record<ErrorCode, FailureHeader>>> = {
  THROTTLED: failureHeader(ThrottledError, 'Retry-After', RETRY_AFTER, (error) => String(error.retryAfterSeconds)),
  RATE_LIMITED: failureHeader(RateLimitedError, 'Retry-After', RETRY_AFTER, (error) => String(error.retryAfterSeconds)),
  METHOD_NOT_ALLOWED: failureHeader(MethodNotAllowedError, 'Allow', 'The methods the path answers.', (error) => error.allowed.join(', ')),
  UNAUTHENTICATED: failureHeader(UnauthenticatedError, 'WWW-Authenticate', 'The HTTP Basic challenge, `Basic realm="tessera"`.', () => BASIC_CHALLENGE),
};

/** The headers an answer to this error code carries, for the document; undefined when it carries none. */
export function failureHeaderSchema(code: ErrorCode): z.ZodObject | undefined {
  return FAILURE_HEADERS[code]?.schema;
}

/** Writes the headers the answer to `error` carries (none for an error that is not a TesseraError). */
export function setFailureHeaders(ctx: Context, error: TesseraError | undefined): void {
  if (error === undefined) return;
  ctx.set({ ...FAILURE_HEADERS[error.code]?.values(error) });
}
