import type { CasCore } from '@tessera/core';
import type { TicketGrantingCookie } from '@tessera/core/modules/login';
import type { Context } from 'koa';
import { LoginCookies, TICKET_GRANTING_COOKIE } from '../login/login-cookies.js';

/**
 * What an RP-initiated logout does to tessera's login session: as /logout, it destroys the TGT the
 * provider session stood for (and so runs CAS single logout), and clears the browser's TGC when it names it.
 */
export function endLoginSession(core: CasCore, cookie: TicketGrantingCookie, basePath: string, alwaysSecure: boolean): (ctx: Context, tgtId: string) => Promise<void> {
  const cookies = new LoginCookies(basePath.replace(/\/+$/, '') || '/', alwaysSecure);
  return async (ctx, tgtId) => {
    await core.destroyTicketGrantingTicket.execute(tgtId);
    const sealed = cookies.get(ctx, TICKET_GRANTING_COOKIE);
    if (sealed !== undefined && (await cookie.open(sealed)) === tgtId) cookies.clear(ctx, TICKET_GRANTING_COOKIE);
  };
}
