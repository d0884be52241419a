import type { TicketGrantingCookie } from '@tessera/core/modules/login';
import type { Context } from 'koa';
import type { BrowserSessions } from '../../http-module.js';
import { LoginCookies, TICKET_GRANTING_COOKIE } from './login-cookies.js';

/**
 * The login module's browser sessions for other modules (BrowserSessions): its ticket-granting cookie,
 * opened and cleared as its own routes do, under the same path and with the same flags.
 */
export class LoginBrowserSessions implements BrowserSessions {
  private readonly cookies: LoginCookies;

  /** `basePath` as the server's setting has it; `alwaysSecure`: the public URL is https. */
  constructor(
    private readonly cookie: TicketGrantingCookie,
    basePath: string,
    alwaysSecure: boolean,
  ) {
    this.cookies = new LoginCookies(basePath.replace(/\/+$/, '') || '/', alwaysSecure);
  }

  async sessionOf(ctx: Context): Promise<string | undefined> {
    const sealed = this.cookies.get(ctx, TICKET_GRANTING_COOKIE);
    return sealed === undefined ? undefined : this.cookie.open(sealed);
  }

  async forget(ctx: Context, tgtId: string): Promise<void> {
    if ((await this.sessionOf(ctx)) === tgtId) this.cookies.clear(ctx, TICKET_GRANTING_COOKIE);
  }
}
