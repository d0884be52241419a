import {
  AuthenticationFailedError,
  InvalidRequestError,
  NoCredentialsError,
  RateLimitedError,
  ServiceNotAuthorizedError,
  ThrottledError,
  type RelyingParty,
  type RequestOrigin,
  type TesseraError,
} from '@tessera/core';
import type { BrowserId, BrowserLogin, HeldRequest, LoginFlow, LoginPage, LoginProgress, PendingLogin, ShownPrompt, TicketGrantingCookie, LoginFormTokens } from '@tessera/core/modules/login';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { statusOf, UNEXPECTED_ERROR_STATUS } from '../../errors/error-status.js';
import { toTesseraError } from '../../errors/normalize-error.js';
import { failureHeaderSchema, setFailureHeaders } from '../../errors/failure-headers.js';
import { reportServerError } from '../../errors/report.js';
import type { HttpContext } from '../../http-module.js';
import { flag, optionalText } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { inputOf } from '../../routes/route-input.js';
import type { FailureRendering, Step } from '../../routes/route.js';
import { LoginCookies, TICKET_GRANTING_COOKIE, WARN_COOKIE } from './login-cookies.js';
import type { LoginForm, LoginPages, Page, ResponseMethod, ShownRelyingParty } from './pages.js';
import type { PromptViews } from './prompt-views.js';
import { sendPage } from '../../pages/send-page.js';

/** What the login routes work with, beside the HTTP context every module gets. */
export interface LoginRouteDependencies {
  readonly login: BrowserLogin;
  /** The login's prompts, run in order: what the routes show next. */
  readonly flow: LoginFlow;
  readonly cookie: TicketGrantingCookie;
  readonly formTokens: LoginFormTokens;
  readonly pages: LoginPages;
  /** Each prompt's view, by its name. */
  readonly views: PromptViews;
}

export const HTML = { 'text/html': z.string().meta({ description: 'An HTML page.' }) };
export const METHOD = optionalText('How to send the browser back to the service: `GET` (a 302 redirect, the default) or `POST` (a form posting the ticket).');
export const RENEW = flag('Ask for credentials even with a login session; the ticket then counts as from a new login.');
export const LOCATION = z.object({ Location: z.string().meta({ description: 'The service URL, with `ticket` appended unless the redirect is a gateway one.' }) });

/** The answers of a page route to a core error: the status of the one table, and an HTML page. */
export const pageFailures = (http: HttpContext): FailureRendering => ({
  statusOf: (code) => statusOf(code, http.options),
  response: (code) => {
    const headers = failureHeaderSchema(code);
    return headers ? { content: HTML, headers } : { content: HTML };
  },
});

/** How a refused or throttled post shows its page again, with one message: the form, or a prompt's page. */
export type ShowAgain = (ctx: Context, status: number, error: TesseraError) => Promise<void>;

/** The login form as a route fills it in, before its fresh form token, its parts and its message. */
export type FormFields = Omit<LoginForm, 'formToken' | 'message' | 'parts'>;

/**
 * What the login routes share (docs/protocol.md §12): the pages and their headers, the cookies, the
 * form tokens, and what a login's progress (core's LoginFlow) shows.
 */
export class LoginResponses {
  readonly cookies: LoginCookies;

  constructor(
    readonly http: HttpContext,
    readonly deps: LoginRouteDependencies,
  ) {
    this.cookies = new LoginCookies(http.options.basePath || '/', http.options.publicUrl?.startsWith('https:') ?? false);
  }

  get messages() {
    return this.deps.pages.messages;
  }

  send(ctx: Context, status: number, page: Page): void {
    sendPage(ctx, status, page);
  }

  /** This browser's id, its cookie set now when it has none: asked only when a login is held. */
  browser(ctx: Context): BrowserId {
    return () => this.cookies.browserId(ctx, () => this.deps.formTokens.newBrowserId());
  }

  /** A fresh form token for this browser (its id cookie set now when it has none). */
  newToken(ctx: Context): Promise<string> {
    return this.deps.formTokens.issue(this.browser(ctx)());
  }

  /** The login form, naming the relying party its service stands for, its parts prepared (unless given). */
  async showForm(ctx: Context, status: number, form: Omit<LoginForm, 'formToken' | 'parts'>, given?: LoginPage): Promise<void> {
    const page = given ?? (await this.deps.flow.loginPage(form.service, requestOrigin(ctx)));
    const relyingParty = page.relyingParty === undefined ? undefined : shownRelyingParty(page.relyingParty);
    const parts = page.parts.map(({ prompt, prepared }) => ({ view: this.deps.views.page(prompt), ...(prepared !== undefined && { prepared }) }));
    this.send(ctx, status, this.deps.pages.loginForm({ ...form, ...(relyingParty && { relyingParty }), parts, formToken: await this.newToken(ctx) }));
  }

  /** The login form again, saying it expired: after a refused form token, or for a held login that is gone (the login starts again). */
  showExpiredForm(ctx: Context, status: number, form: FormFields): Promise<void> {
    return this.showForm(ctx, status, { ...form, message: this.messages.formExpired });
  }

  /** The login form again after a refused or throttled post of it, as the user sent it, with one message. */
  readonly showFormAgain: ShowAgain = (ctx, status, error) => this.showForm(ctx, status, { ...this.formAgain(ctx), message: this.formMessage(error) });

  /**
   * Claims a post's form token for this browser. A refused one (missing, forged, expired or used) is
   * reported and answered with the login form again (403, `form`, saying it expired): false, and the
   * post goes no further.
   */
  async claimFormToken(ctx: Context, token: string | undefined, origin: RequestOrigin, form: () => FormFields | Promise<FormFields>): Promise<boolean> {
    const refusal = await this.deps.formTokens.accept(token, this.cookies.sentBrowserId(ctx));
    if (refusal === undefined) return true;
    this.http.events.emit({ type: 'login.token.refused', reason: refusal }, origin);
    await this.showExpiredForm(ctx, 403, await form());
    return false;
  }

  /** The TGT the browser's cookie names, if it opens; a cookie that does not open is dropped. */
  async sessionOf(ctx: Context): Promise<string | undefined> {
    const sealed = this.cookies.get(ctx, TICKET_GRANTING_COOKIE);
    const tgtId = sealed === undefined ? undefined : await this.deps.cookie.open(sealed);
    if (sealed !== undefined && tgtId === undefined) this.cookies.clear(ctx, TICKET_GRANTING_COOKIE);
    return tgtId;
  }

  /**
   * What a login's progress shows: a session it made gets its cookie (and a new login the `warn`
   * preference it asked for), then the login form, a prompt's page, a prompt's own page in place of the
   * rest, or the end (back to the service, a confirmation, logged in, refused).
   */
  async show(ctx: Context, progress: LoginProgress): Promise<void> {
    const { request, madeSession } = progress;
    if (madeSession !== undefined) {
      this.cookies.set(ctx, TICKET_GRANTING_COOKIE, await this.deps.cookie.seal(madeSession.id));
      // A step-up adds a factor to the session: the user's preference stays as it was.
      if (request.stepUp !== true) {
        if (request.warn) this.cookies.set(ctx, WARN_COOKIE, 'true');
        else this.cookies.clear(ctx, WARN_COOKIE);
      }
    }
    const method = responseMethod(request.method);
    switch (progress.kind) {
      case 'form':
        // A session cookie whose TGT is gone is of no use any more.
        if (request.session !== undefined && madeSession === undefined && progress.principal === undefined) this.cookies.clear(ctx, TICKET_GRANTING_COOKIE);
        return this.showForm(ctx, 200, { ...formFieldsOf(request), ...(progress.principal !== undefined && { principal: progress.principal }) }, progress);
      case 'prompt':
        return this.showPrompt(ctx, 200, progress.shown);
      case 'stopped': {
        const stopped = this.deps.views.prompt(progress.prompt).stopped?.(this.messages.language, progress.stop, progress.context);
        if (stopped === undefined) return this.send(ctx, 200, this.deps.pages.notice(this.messages.errorHeading, this.messages.error));
        return this.send(ctx, 200, this.deps.pages.stepStopped(stopped.heading, stopped.content));
      }
      case 'outcome': {
        const { outcome } = progress;
        switch (outcome.kind) {
          case 'redirect':
            return this.backToService(ctx, outcome.service, outcome.ticket, method);
          case 'confirm':
            return this.send(ctx, 200, this.deps.pages.confirm({ service: outcome.service, principal: outcome.principal, method, formToken: await this.newToken(ctx) }));
          case 'signedIn':
            return this.send(ctx, 200, this.deps.pages.signedIn(outcome.principal));
          case 'denied':
            if (outcome.unauthorizedRedirectUrl !== undefined) return this.toUnauthorizedRedirect(ctx, outcome.unauthorizedRedirectUrl);
            return this.send(ctx, 403, this.deps.pages.denied(outcome.service, outcome.principal));
        }
      }
    }
  }

  /** A prompt's page for a held login, with a fresh form token; `message` after a refusal. */
  async showPrompt(ctx: Context, status: number, shown: ShownPrompt, message?: string): Promise<void> {
    const { prompt, pending, context, prepared } = shown;
    const page = this.deps.views.prompt(prompt).page(this.messages.language, context, prepared);
    const formToken = await this.newToken(ctx);
    this.send(ctx, status, this.deps.pages.step({ page, formToken, pending, username: context.authentication.principal.id, ...(message !== undefined && { message }) }));
  }

  /** A browser the service's access strategy refuses goes where the definition says (its `unauthorizedRedirectUrl`), as in CAS. */
  toUnauthorizedRedirect(ctx: Context, url: string): void {
    ctx.status = 302;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(url);
  }

  backToService(ctx: Context, service: string, ticket: string | undefined, method: ResponseMethod): void {
    if (method === 'POST') return this.send(ctx, 200, this.deps.pages.postRedirect(service, ticket));
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(ticket === undefined ? service : withTicket(service, ticket));
  }

  /** Failures as pages; a refused or throttled post shows its page again (`again`), with one message. */
  renderFailures(again?: ShowAgain): Step {
    const { http, messages } = this;
    const send = (ctx: Context, status: number, page: Page) => this.send(ctx, status, page);
    const notice = (heading: string, paragraph: string) => this.deps.pages.notice(heading, paragraph);
    const toUnauthorizedRedirect = (ctx: Context, url: string) => this.toUnauthorizedRedirect(ctx, url);
    return async function renderLoginFailures(ctx: Context, next: Next) {
      try {
        await next();
      } catch (thrown) {
        const error = toTesseraError(thrown);
        const status = error ? statusOf(error.code, http.options) : UNEXPECTED_ERROR_STATUS;
        if (!error || status >= 500) reportServerError(http.events, thrown, ctx);
        setFailureHeaders(ctx, error);
        if (again && (error instanceof AuthenticationFailedError || error instanceof NoCredentialsError || error instanceof ThrottledError || error instanceof RateLimitedError)) {
          return again(ctx, status, error);
        }
        if (error instanceof ServiceNotAuthorizedError && error.unauthorizedRedirectUrl !== undefined) return toUnauthorizedRedirect(ctx, error.unauthorizedRedirectUrl);
        if (error?.code === 'SERVICE_NOT_AUTHORIZED') return send(ctx, status, notice(messages.unknownServiceHeading, messages.unknownService));
        if (status === 503) return send(ctx, status, notice(messages.unavailableHeading, messages.unavailable));
        if (status >= 500) return send(ctx, status, notice(messages.errorHeading, messages.error));
        return send(ctx, status, notice(messages.badRequestHeading, messages.badRequest));
      }
    };
  }

  /** The login form's message for a refused or throttled post. */
  formMessage(error: TesseraError): string {
    if (error instanceof ThrottledError) return this.messages.throttled;
    if (error instanceof RateLimitedError) return this.messages.rateLimited;
    return this.messages.loginFailed;
  }

  /** The form as the user sent it, for showing it again: never the password. */
  formAgain(ctx: Context): FormFields {
    const sent = sentParameters(ctx);
    const service = typeof sent['service'] === 'string' ? sent['service'] : undefined;
    const username = typeof sent['username'] === 'string' ? sent['username'] : undefined;
    return {
      ...(service !== undefined && { service }),
      ...(username !== undefined && { username }),
      renew: sent['renew'] === true,
      warn: sent['warn'] === true,
      method: typeof sent['method'] === 'string' && sent['method'].toUpperCase() === 'POST' ? 'POST' : 'GET',
    };
  }
}

/** What the login form shows of a relying party. */
function shownRelyingParty({ service, shownUrl }: RelyingParty): ShownRelyingParty {
  return {
    name: service.name,
    shownUrl,
    ...(service.logo !== undefined && { logo: service.logo }),
    ...(service.informationUrl !== undefined && { informationUrl: service.informationUrl }),
    ...(service.privacyUrl !== undefined && { privacyUrl: service.privacyUrl }),
  };
}

/** The login form a held login was started from; a plain one without it. */
export function heldLoginForm(held: PendingLogin | undefined): FormFields {
  return held === undefined ? { renew: false, warn: false, method: 'GET' } : { ...formFieldsOf(held), warn: held.warn };
}

/** What the login form shows again of the request a login answers: its service, `renew` and how the browser goes back. */
function formFieldsOf(request: HeldRequest): FormFields {
  return { ...(request.service !== undefined && { service: request.service }), renew: request.renew, method: request.method === 'POST' ? 'POST' : 'GET' };
}

/** The route's parsed parameters; none when the input was unreadable. */
export function sentParameters(ctx: Context): Readonly<Record<string, unknown>> {
  try {
    return inputOf(ctx).parameters;
  } catch {
    // Unreadable input: nothing sent.
    return {};
  }
}

export function responseMethod(value: string | undefined): ResponseMethod {
  const method = (value ?? 'GET').toUpperCase();
  if (method === 'GET' || method === 'POST') return method;
  throw new InvalidRequestError("Parameter 'method' must be GET or POST");
}

/** A URL a browser may be sent to: absolute, and not one that runs or embeds content (`javascript:`, `data:`). */
export function isNavigable(url: string): boolean {
  try {
    return !['javascript:', 'data:', 'vbscript:', 'blob:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

export function requireNavigable(service: string | undefined): void {
  if (service !== undefined && !isNavigable(service)) throw new InvalidRequestError("Parameter 'service' must be an absolute URL");
}

/** The service URL with `ticket` added to its query, before any fragment (as CAS appends it). */
export function withTicket(service: string, ticket: string): string {
  return withQuery(service, 'ticket', ticket);
}

/** The URL with one more query parameter, before any fragment. */
export function withQuery(url: string, name: string, value: string): string {
  const hash = url.indexOf('#');
  const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}${fragment}`;
}
