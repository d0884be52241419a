import type { ErrorCode } from '@tessera/core';
import { z } from 'zod';
import type { FailureRendering, ResponseDoc } from '../routes/route.js';
import { statusOf, type StatusSettings } from './error-status.js';

/** The body of a refused login (and of a throttled one): one reason per failed credential. */
export const authenticationExceptionsSchema = z
  .object({ authentication_exceptions: z.array(z.string()) })
  .meta({ id: 'AuthenticationExceptions', description: 'Why the authentication failed: one reason per refused credential; no secrets.' });

export const plainTextSchema = z.string().meta({ id: 'PlainText', description: 'A plain-text message or value.' });

export const retryAfterHeader = z.object({ 'Retry-After': z.string().meta({ description: 'Seconds to wait before trying again.' }) });
export const allowHeader = z.object({ Allow: z.string().meta({ description: 'The methods the path answers.' }) });
export const basicChallengeHeader = z.object({ 'WWW-Authenticate': z.string().meta({ description: 'The HTTP Basic challenge, `Basic realm="tessera"`.' }) });

/** Headers some failures carry, by code, whatever the route family renders in the body. */
export function failureHeaders(code: ErrorCode): z.ZodObject | undefined {
  if (code === 'THROTTLED' || code === 'RATE_LIMITED') return retryAfterHeader;
  if (code === 'METHOD_NOT_ALLOWED') return allowHeader;
  if (code === 'UNAUTHENTICATED') return basicChallengeHeader;
  return undefined;
}

/**
 * What restErrors answers, for the document: the status of the one table, `authentication_exceptions`
 * JSON for a failed or throttled login, a text/plain message for anything else.
 */
export function restFailures(settings: StatusSettings): FailureRendering {
  return {
    statusOf: (code) => statusOf(code, settings),
    response(code) {
      const json = code === 'AUTHENTICATION_FAILED' || code === 'THROTTLED';
      const headers = failureHeaders(code);
      const response: Omit<ResponseDoc, 'description'> = { content: json ? { 'application/json': authenticationExceptionsSchema } : { 'text/plain': plainTextSchema } };
      return headers ? { ...response, headers } : response;
    },
  };
}
