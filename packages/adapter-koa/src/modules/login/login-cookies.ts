import type { Context } from 'koa';

/** CAS's ticket-granting cookie: the sealed TGT id of the browser's login session. */
export const TICKET_GRANTING_COOKIE = 'TGC';
/** CAS's warn cookie: the user asked to be warned before single sign-on to a service. */
export const WARN_COOKIE = 'CASPRIVACY';
/** A random id of the browser, which each login form token is bound to. */
export const BROWSER_COOKIE = 'TBROWSER';

const BROWSER_ID = /^[A-Za-z0-9_-]{43}$/;
const CHOSEN_BROWSER_ID = Symbol('browserId');

/**
 * The login module's cookies: HttpOnly, SameSite=Lax, for the base path only, Secure whenever the
 * browser reaches the server over TLS: always when the public URL is https (whatever the proxy in front
 * says or leaves out), else when the request came over TLS (tessera's own listener, or a trusted
 * proxy's X-Forwarded-Proto: https). Session cookies: they end with the browser, the TGT's own lifetime
 * bounds them on the server.
 */
export class LoginCookies {
  /** `alwaysSecure`: the public URL is https, so every browser came over TLS. */
  constructor(
    private readonly path: string,
    private readonly alwaysSecure: boolean,
  ) {}

  get(ctx: Context, name: string): string | undefined {
    const value = ctx.cookies.get(name, { signed: false });
    return value === undefined || value === '' ? undefined : value;
  }

  set(ctx: Context, name: string, value: string): void {
    ctx.cookies.set(name, value, this.options(ctx));
  }

  clear(ctx: Context, name: string): void {
    ctx.cookies.set(name, null, this.options(ctx));
  }

  private options(ctx: Context): Parameters<Context['cookies']['set']>[2] {
    // The cookies library refuses a Secure cookie on a request it takes for plain HTTP: the proxy's hop is.
    if (this.alwaysSecure) ctx.cookies.secure = true;
    return { httpOnly: true, sameSite: 'lax', secure: this.alwaysSecure || ctx.secure, path: this.path, signed: false, overwrite: true };
  }

  /** The browser's id, set now (once per request) when it has none, or one not of ours. */
  browserId(ctx: Context, newId: () => string): string {
    const state = ctx.state as { [CHOSEN_BROWSER_ID]?: string };
    const chosen = state[CHOSEN_BROWSER_ID];
    if (chosen !== undefined) return chosen;
    const sent = this.get(ctx, BROWSER_COOKIE);
    if (sent !== undefined && BROWSER_ID.test(sent)) return (state[CHOSEN_BROWSER_ID] = sent);
    const id = (state[CHOSEN_BROWSER_ID] = newId());
    this.set(ctx, BROWSER_COOKIE, id);
    return id;
  }

  /** The id the browser sent, for checking a form token; never a new one. */
  sentBrowserId(ctx: Context): string | undefined {
    const sent = this.get(ctx, BROWSER_COOKIE);
    return sent !== undefined && BROWSER_ID.test(sent) ? sent : undefined;
  }
}
