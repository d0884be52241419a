import type { CasCore } from '@tessera/core';
import type { Context } from 'koa';
import type { BrowserSessions } from '../../http-module.js';

/**
 * What an RP-initiated logout does to tessera's login session: as /logout, it destroys the TGT the
 * provider session stood for (and so runs CAS single logout), and clears the browser's session
 * cookie when it names it (the login module's, through BrowserSessions).
 */
export function endLoginSession(core: CasCore, sessions: BrowserSessions): (ctx: Context, tgtId: string) => Promise<void> {
  return async (ctx, tgtId) => {
    await core.destroyTicketGrantingTicket.execute(tgtId);
    await sessions.forget(ctx, tgtId);
  };
}
