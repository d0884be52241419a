import { InvalidRequestError, PayloadTooLargeError, TesseraError, UnsupportedMediaTypeError } from '@tessera/core';

/**
 * Brings what the body parser throws into core's hierarchy so one status table covers every error:
 * koa-body/co-body errors (http-errors, or a SyntaxError) carry a 4xx `status`. Their messages are not
 * passed on: a JSON parse error quotes the body, password included. Anything else is unexpected: undefined.
 */
export function toTesseraError(thrown: unknown): TesseraError | undefined {
  if (thrown instanceof TesseraError) return thrown;
  switch (clientErrorStatus(thrown)) {
    case undefined:
      return undefined;
    case 413:
      return new PayloadTooLargeError('The request body is too large');
    case 415:
      return new UnsupportedMediaTypeError('The request body encoding is not supported');
    default:
      return new InvalidRequestError(
        thrown instanceof SyntaxError ? 'The request body is not a valid JSON object' : 'The request could not be read',
      );
  }
}

/**
 * What reading a request body throws, always the client's fault: besides the body parser's own
 * errors, the decompressor's (zlib, brotli), which carry no status, for a body that is not in the
 * Content-Encoding it declares.
 */
export function bodyReadError(thrown: unknown): TesseraError {
  return toTesseraError(thrown) ?? new InvalidRequestError('The request body does not decode as its Content-Encoding says');
}

function clientErrorStatus(thrown: unknown): number | undefined {
  if (typeof thrown !== 'object' || thrown === null || !('status' in thrown)) return undefined;
  const { status } = thrown;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}
