import { usernamePasswordCredential, type UsernamePasswordCredential } from '@tessera/core';
import parseBasicAuth from 'basic-auth';
import type { Context } from 'koa';

/**
 * The username + password of an `Authorization: Basic` header (RFC 7617, parsed by the basic-auth
 * library); none when the header is absent, malformed, or either part is blank.
 */
export function basicCredentials(ctx: Context): UsernamePasswordCredential[] {
  const parsed = parseBasicAuth(ctx.req);
  if (!parsed?.name.trim() || !parsed.pass.trim()) return [];
  return [usernamePasswordCredential(parsed.name, parsed.pass)];
}
