import type { Credential } from '@tessera/core';
import type { Socket } from 'node:net';
import type { Context } from 'koa';
import { requestParameters, type RequestParameters } from './parameters.js';

/** What an extractor may look at. The socket is a TLSSocket on an HTTPS listener (client certificates). */
export interface CredentialRequest {
  readonly parameters: RequestParameters;
  /** First value of a request header (case-insensitive name), or undefined. */
  header(name: string): string | undefined;
  readonly socket: Socket;
}

/** Request → credentials (CAS's REST credential factories); credential → principal is core's handlers' job. */
export type CredentialExtractor = (request: CredentialRequest) => Credential[];

/** `username` and `password`, both non-blank → one credential; otherwise none. */
export const usernamePasswordExtractor: CredentialExtractor = ({ parameters }) => {
  const username = parameters.get('username');
  const password = parameters.get('password');
  if (!username?.trim() || !password?.trim()) return [];
  return [{ type: 'usernamePassword', username, password }];
};

/**
 * The otp module's extractor: the code in `parameter` (default `otp`) for the username of the same
 * request. Without both, none: a code is only ever checked against the user who sent it.
 */
export function otpExtractor(parameter: string): CredentialExtractor {
  return ({ parameters }) => {
    const username = parameters.get('username');
    const code = parameters.get(parameter)?.trim();
    if (!username?.trim() || !code) return [];
    return [{ type: 'otp', username, code }];
  };
}

/** Runs every extractor and collects all they find (CAS's chaining factory: it never stops at the first). */
export function extractCredentials(ctx: Context, extractors: readonly CredentialExtractor[]): Credential[] {
  const request: CredentialRequest = {
    parameters: requestParameters(ctx),
    header: (name) => {
      const value = ctx.get(name);
      return value === '' ? undefined : value;
    },
    socket: ctx.req.socket,
  };
  return extractors.flatMap((extract) => extract(request));
}
