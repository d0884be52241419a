import { MAX_SERVICE_URL_BYTES, serviceUrlTooLong } from '@tessera/core';
import { z } from 'zod';
import { isTruthy } from './flags.js';

/** A text parameter handed on as sent (blank included), for the use case to judge. */
export function text(description: string) {
  return z.string().optional().meta({ description });
}

/** A text parameter where blank counts as absent (CAS ignores a blank `service`). */
export function optionalText(description: string) {
  return z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value))
    .meta({ description });
}

/**
 * A service URL as sent, refused past core's MAX_SERVICE_URL_BYTES: every parameter that names a
 * service is one, so an over-long URL is a 400 in the route family's own failure format before any
 * work is done for it.
 */
const serviceUrlText = z.string().refine((service) => !serviceUrlTooLong(service), { error: `a service URL may be at most ${MAX_SERVICE_URL_BYTES} bytes` });
const SERVICE_URL_LIMIT = `At most ${MAX_SERVICE_URL_BYTES} bytes (UTF-8), else 400.`;

/** A service URL handed on as sent (blank included), for the use case to judge; too long: 400. */
export function serviceUrl(description: string) {
  return serviceUrlText.optional().meta({ description: `${description} ${SERVICE_URL_LIMIT}` });
}

/** A service URL where blank counts as absent (CAS ignores a blank `service`); too long: 400. */
export function optionalServiceUrl(description: string) {
  return serviceUrlText
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value))
    .meta({ description: `${description} ${SERVICE_URL_LIMIT}` });
}

const FLAG_VALUES = 'true, yes, on, y, t or 1 (any case) mean true; anything else false';

/** A boolean flag as CAS reads one; absent is false. */
export function flag(description: string) {
  return z
    .string()
    .optional()
    .transform(isTruthy)
    .meta({ description: `${description} ${FLAG_VALUES}.` });
}

/** A flag that may be left to another source (`token`: parameter, else header): blank or absent is undefined. */
export function optionalFlag(description: string) {
  return z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : isTruthy(value)))
    .meta({ description: `${description} ${FLAG_VALUES}.` });
}

/**
 * The parameters of a REST route, from the query string or a form or JSON object body. Every value,
 * declared or not, must be a string: a JSON body with any other value is refused naming it.
 */
export function parameterObject<Shape extends z.ZodRawShape>(shape: Shape, others: string) {
  return z.object(shape).catchall(z.string().meta({ description: others }));
}
