import { z } from 'zod';
import type { FailureRendering, ResponseDoc } from '../routes/route.js';
import { statusOf, type StatusSettings } from './error-status.js';
import { failureHeaderSchema } from './failure-headers.js';

/** The body of a refused login (and of a throttled one): one reason per failed credential. */
const authenticationExceptionsSchema = z
  .object({ authentication_exceptions: z.array(z.string()) })
  .meta({ id: 'AuthenticationExceptions', description: 'Why the authentication failed: one reason per refused credential; no secrets.' });

export const plainTextSchema = z.string().meta({ id: 'PlainText', description: 'A plain-text message or value.' });

/**
 * What restErrors answers, for the document: the status of the one table, `authentication_exceptions`
 * JSON for a failed or throttled login, a text/plain message for anything else.
 */
export function restFailures(settings: StatusSettings): FailureRendering {
  return {
    statusOf: (code) => statusOf(code, settings),
    response(code) {
      const json = code === 'AUTHENTICATION_FAILED' || code === 'THROTTLED';
      const headers = failureHeaderSchema(code);
      const response: Omit<ResponseDoc, 'description'> = { content: json ? { 'application/json': authenticationExceptionsSchema } : { 'text/plain': plainTextSchema } };
      return headers ? { ...response, headers } : response;
    },
  };
}
