import {
  AuthenticationFailedError,
  InvalidRequestError,
  NoCredentialsError,
  RateLimitedError,
  ServiceNotAuthorizedError,
  ThrottledError,
  type HoldServiceTicket,
  type RelyingParty,
  type RequestOrigin,
  type TesseraError,
} from '@tessera/core';
import type { BrowserLogin, LoginFormTokens, LoginOutcome, LoginRequest, PendingLogin, PendingLogins, TicketGrantingCookie } from '@tessera/core/modules/login';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { statusOf, UNEXPECTED_ERROR_STATUS } from '../../errors/error-status.js';
import { toTesseraError } from '../../errors/normalize-error.js';
import { failureHeaderSchema, setFailureHeaders } from '../../errors/failure-headers.js';
import { reportServerError } from '../../errors/report.js';
import type { HttpContext, LoginStep, LoginStepContext, TicketStep, TicketStepContext } from '../../http-module.js';
import { flag, optionalText } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { inputOf } from '../../routes/route-input.js';
import type { FailureRendering, Step } from '../../routes/route.js';
import { LoginCookies, TICKET_GRANTING_COOKIE, WARN_COOKIE } from './login-cookies.js';
import type { LoginForm, LoginPages, Page, ResponseMethod, ShownRelyingParty } from './pages.js';
import { sendPage } from '../../pages/send-page.js';

/** What the login routes work with, beside the HTTP context every module gets. */
export interface LoginRouteDependencies {
  readonly login: BrowserLogin;
  readonly cookie: TicketGrantingCookie;
  readonly formTokens: LoginFormTokens;
  readonly pendingLogins: PendingLogins;
  readonly pages: LoginPages;
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

/** How a refused or throttled post shows its page again, with one message: the form, or a step. */
export type ShowAgain = (ctx: Context, status: number, error: TesseraError) => Promise<void>;

/** The login form as a route fills it in, before its fresh form token and its message. */
export type FormFields = Omit<LoginForm, 'formToken' | 'message'>;

/** The request a login answers, as the routes read it. */
export interface ShownRequest {
  readonly service?: string;
  readonly renew: boolean;
  readonly method: ResponseMethod;
  /** The browser sent a session cookie that opened. */
  readonly sessionSent: boolean;
}

/**
 * What the login routes share (docs/protocol.md §12): the pages and their headers, the cookies, the
 * form tokens, the held logins of steps, and what a login outcome shows.
 */
export class LoginResponses {
  readonly cookies: LoginCookies;
  /** Asks the ticket steps whether a browser's ticket waits for one; none without ticket steps, so a grant asks nothing. */
  private readonly holdTicket: HoldServiceTicket | undefined;

  constructor(
    readonly http: HttpContext,
    readonly deps: LoginRouteDependencies,
  ) {
    this.cookies = new LoginCookies(http.options.basePath || '/', http.options.publicUrl?.startsWith('https:') ?? false);
    const { ticketSteps } = http.loginForm;
    this.holdTicket = ticketSteps.length === 0 ? undefined : async (ticket) => (await neededSteps(ticketSteps, ticket)).length > 0;
  }

  /** The request with the ticket steps' hold: what every browser grant goes through. */
  withHold<Request extends LoginRequest>(request: Request): Request {
    return this.holdTicket === undefined ? request : { ...request, holdTicket: this.holdTicket };
  }

  get messages() {
    return this.deps.pages.messages;
  }

  send(ctx: Context, status: number, page: Page): void {
    sendPage(ctx, status, page);
  }

  /** A fresh form token for this browser (its id cookie set now when it has none). */
  newToken(ctx: Context): Promise<string> {
    const { formTokens } = this.deps;
    return formTokens.issue(this.cookies.browserId(ctx, () => formTokens.newBrowserId()));
  }

  /** The login form, naming the relying party its service stands for (looked up unless given). */
  async showForm(ctx: Context, status: number, form: Omit<LoginForm, 'formToken'>, party?: RelyingParty): Promise<void> {
    const found = party ?? (await this.deps.login.relyingParty(form.service, requestOrigin(ctx)));
    const relyingParty = found === undefined ? undefined : shownRelyingParty(found);
    this.send(ctx, status, this.deps.pages.loginForm({ ...form, ...(relyingParty && { relyingParty }), formToken: await this.newToken(ctx) }));
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

  async respond(ctx: Context, outcome: LoginOutcome, request: ShownRequest): Promise<void> {
    const { pages } = this.deps;
    switch (outcome.kind) {
      case 'credentials':
        // A session cookie whose TGT is gone is of no use any more.
        if (request.sessionSent && outcome.principal === undefined) this.cookies.clear(ctx, TICKET_GRANTING_COOKIE);
        return this.showForm(ctx, 200, { ...request, ...(outcome.principal !== undefined && { principal: outcome.principal }) }, outcome.relyingParty);
      case 'redirect':
        return this.backToService(ctx, outcome.service, outcome.ticket, request.method);
      case 'confirm':
        return this.send(ctx, 200, pages.confirm({ service: outcome.service, principal: outcome.principal, method: request.method, formToken: await this.newToken(ctx) }));
      case 'signedIn':
        return this.send(ctx, 200, pages.signedIn(outcome.principal));
      case 'denied':
        if (outcome.unauthorizedRedirectUrl !== undefined) return this.toUnauthorizedRedirect(ctx, outcome.unauthorizedRedirectUrl);
        return this.send(ctx, 403, pages.denied(outcome.service, outcome.principal));
      case 'beforeTicket': {
        const held: TicketRequest = { session: outcome.session, url: outcome.url, fromNewLogin: outcome.fromNewLogin, method: request.method };
        return this.beforeTicket(ctx, held, { authentication: outcome.authentication, service: outcome.service, url: outcome.url }, this.http.loginForm.ticketSteps);
      }
      case 'stepUp': {
        // The session's own login goes through the steps the service needs, then on as single sign-on.
        const login = heldLogin({ service: outcome.url, sessionTgtId: outcome.session, renew: false, warn: false, stepUp: true, method: request.method, origin: requestOrigin(ctx) });
        return this.proceed(ctx, login, { authentication: outcome.authentication, service: outcome.service }, this.http.loginForm.steps);
      }
    }
  }

  /**
   * A proven login goes on: to the first of `steps` it needs (held meanwhile, its page shown), or
   * without one to its session: the cookies set, and the outcome shown.
   */
  async proceed(ctx: Context, login: HeldLogin, context: LoginStepContext, steps: readonly LoginStep[]): Promise<void> {
    const needed = await neededSteps(steps, context);
    const [first] = needed;
    if (first !== undefined) {
      const held: PendingLogin = { ...login.request, authentication: context.authentication, steps: needed.map((step) => step.name) };
      const pending = await this.deps.pendingLogins.hold(this.cookies.browserId(ctx, () => this.deps.formTokens.newBrowserId()), held);
      return this.showStep(ctx, 200, { step: first, pending, context });
    }
    const { tgt, outcome } = await this.deps.login.startSession(this.withHold(login.session), context.authentication, context.service);
    this.cookies.set(ctx, TICKET_GRANTING_COOKIE, await this.deps.cookie.seal(tgt.id));
    if (login.request.warn) this.cookies.set(ctx, WARN_COOKIE, 'true');
    else this.cookies.clear(ctx, WARN_COOKIE);
    return this.respond(ctx, outcome, { ...login.shown, sessionSent: false });
  }

  /**
   * A ticket the session may have, held back for ticket steps: on to the first of `steps` it needs (the
   * request held meanwhile, its page shown), or without one, the ticket granted now.
   */
  async beforeTicket(ctx: Context, ticket: TicketRequest, context: TicketStepContext, steps: readonly TicketStep[]): Promise<void> {
    const needed = await neededSteps(steps, context);
    const [first] = needed;
    const shown: ShownRequest = { service: ticket.url, renew: false, method: ticket.method, sessionSent: true };
    if (first === undefined) {
      const outcome = await this.deps.login.grantAfterSteps({ sessionTgtId: ticket.session, service: ticket.url, fromNewLogin: ticket.fromNewLogin, origin: requestOrigin(ctx) });
      return this.respond(ctx, outcome, shown);
    }
    const held: PendingLogin = {
      authentication: context.authentication,
      steps: needed.map((step) => step.name),
      service: ticket.url,
      session: ticket.session,
      renew: false,
      warn: false,
      method: ticket.method,
      beforeTicket: { fromNewLogin: ticket.fromNewLogin },
    };
    const pending = await this.deps.pendingLogins.hold(this.cookies.browserId(ctx, () => this.deps.formTokens.newBrowserId()), held);
    return this.showTicketStep(ctx, 200, { step: first, pending, context });
  }

  /** A ticket step's page for a held request, with a fresh form token. */
  async showTicketStep(ctx: Context, status: number, shown: { step: TicketStep; pending: string; context: TicketStepContext; message?: string }): Promise<void> {
    const { step, pending, context, message } = shown;
    const page = await step.page(this.messages.language, context);
    const formToken = await this.newToken(ctx);
    this.send(ctx, status, this.deps.pages.step({ page, formToken, pending, username: context.authentication.principal.id, ...(message !== undefined && { message }) }));
  }

  /** A step's page for a held login, with a fresh form token. */
  async showStep(ctx: Context, status: number, shown: { step: LoginStep; pending: string; context: LoginStepContext; message?: string }): Promise<void> {
    const { step, pending, context, message } = shown;
    const page = step.page(this.messages.language, context);
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

/** A ticket held back for ticket steps: the session, the service URL, whether it is from a new login, and how the browser goes back. */
export interface TicketRequest {
  readonly session: string;
  readonly url: string;
  readonly fromNewLogin: boolean;
  readonly method: ResponseMethod;
}

/** The steps of `steps` this login or ticket needs, in order. */
export async function neededSteps<Context, Step extends { needed(context: Context): Promise<boolean> }>(steps: readonly Step[], context: Context): Promise<Step[]> {
  const needed: Step[] = [];
  for (const step of steps) if (await step.needed(context)) needed.push(step);
  return needed;
}

/** A proven login as the routes hand it on: the request it answers, as core and the pages read it. */
export interface HeldLogin {
  /** What core's startSession is given. */
  readonly session: LoginRequest;
  /** What a held login keeps of the request. */
  readonly request: Omit<PendingLogin, 'authentication' | 'steps'>;
  readonly shown: ShownRequest;
}

/** The login form a held login was started from; a plain one without it. */
export function heldLoginForm(held: PendingLogin | undefined): FormFields {
  return {
    ...(held?.service !== undefined && { service: held.service }),
    renew: held?.renew ?? false,
    warn: held?.warn ?? false,
    method: held?.method === 'POST' ? 'POST' : 'GET',
  };
}

/** The request of a login, in the three forms the routes need, from what the form or the held login says. */
export function heldLogin(request: { service?: string; sessionTgtId?: string; renew: boolean; warn: boolean; stepUp?: boolean; method: ResponseMethod; origin: RequestOrigin }): HeldLogin {
  const service = request.service === undefined ? {} : { service: request.service };
  const stepUp = request.stepUp === true ? { stepUp: true } : {};
  return {
    session: { ...service, ...(request.sessionTgtId !== undefined && { sessionTgtId: request.sessionTgtId }), renew: request.renew, gateway: false, warn: false, ...stepUp, origin: request.origin },
    request: { ...service, ...(request.sessionTgtId !== undefined && { session: request.sessionTgtId }), renew: request.renew, warn: request.warn, ...stepUp, method: request.method },
    shown: { ...service, renew: request.renew, method: request.method, sessionSent: request.sessionTgtId !== undefined },
  };
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
