import type { Context } from 'koa';

/** A page ready to send: its markup, and the Content-Security-Policy that lets only its own script and styles run. */
export interface SentPage {
  readonly markup: string;
  readonly contentSecurityPolicy: string;
}

/** Answers with one of tessera's HTML pages: never cached, never framed, never sniffed, no referrer sent on. */
export function sendPage(ctx: Context, status: number, page: SentPage): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', page.contentSecurityPolicy);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = page.markup;
}
