import { AuthenticationFailedError } from '@tessera/core';

/** The reasons an authentication was refused with; none when it passed. Any other error is rethrown. */
export async function failureReasons(attempt: Promise<unknown>): Promise<readonly string[]> {
  try {
    await attempt;
  } catch (error) {
    if (error instanceof AuthenticationFailedError) return error.reasons;
    throw error;
  }
  return [];
}
