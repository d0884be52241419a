import type { CasCore } from '@tessera/core';
import type { TicketGrantingCookie } from '@tessera/core/modules/login';
import type { Context } from 'koa';
import { LoginCookies, TICKET_GRANTING_COOKIE } from '../login/login-cookies.js';

/**
 * What an RP-initiated logout does to tessera's login session: as /logout, it destroys the TGT of the
 * browser's TGC (and so runs CAS single logout) and clears the cookie.
 */
export function endLoginSession(core: CasCore, cookie: TicketGrantingCookie, basePath: string, alwaysSecure: boolean): (ctx: Context) => Promise<void> {
  const cookies = new LoginCookies(basePath.replace(/\/+$/, '') || '/', alwaysSecure);
  return async (ctx) => {
    const sealed = cookies.get(ctx, TICKET_GRANTING_COOKIE);
    const tgtId = sealed === undefined ? undefined : await cookie.open(sealed);
    if (tgtId !== undefined) await core.destroyTicketGrantingTicket.execute(tgtId);
    if (sealed !== undefined) cookies.clear(ctx, TICKET_GRANTING_COOKIE);
  };
}
