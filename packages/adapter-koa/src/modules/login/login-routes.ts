import {
  AuthenticationFailedError,
  InvalidRequestError,
  MethodNotAllowedError,
  NoCredentialsError,
  RateLimitedError,
  ThrottledError,
  type TesseraError,
} from '@tessera/core';
import { type BrowserLogin, type LoginFormTokens, type LoginOutcome, type TicketGrantingCookie } from '@tessera/core/modules/login';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { statusOf, UNEXPECTED_ERROR_STATUS } from '../../errors/error-status.js';
import { toTesseraError } from '../../errors/normalize-error.js';
import { failureHeaders } from '../../errors/rest-failures.js';
import { reportServerError } from '../../errors/report.js';
import type { HttpContext } from '../../http-module.js';
import { flag, optionalText, text } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { inputOf } from '../../routes/route-input.js';
import { defineRoute, type FailureRendering, type Route, type Step } from '../../routes/route.js';
import { credentialRequest, SERVICE, STORE_ERRORS } from '../../request/credential-request.js';
import { LoginCookies, TICKET_GRANTING_COOKIE, WARN_COOKIE } from './login-cookies.js';
import type { LoginForm, LoginPages, Page, ResponseMethod } from './pages.js';

/** What the login routes work with, beside the HTTP context every module gets. */
export interface LoginRouteDependencies {
  readonly login: BrowserLogin;
  readonly cookie: TicketGrantingCookie;
  readonly formTokens: LoginFormTokens;
  readonly pages: LoginPages;
}

const HTML = { 'text/html': z.string().meta({ description: 'An HTML page.' }) };
const METHOD = optionalText('How to send the browser back to the service: `GET` (a 302 redirect, the default) or `POST` (a form posting the ticket).');
const RENEW = flag('Ask for credentials even with a login session; the ticket then counts as from a new login.');
const LOCATION = z.object({ Location: z.string().meta({ description: 'The service URL, with `ticket` appended unless the redirect is a gateway one.' }) });

/** The answers of a page route to a core error: the status of the one table, and an HTML page. */
const pageFailures = (http: HttpContext): FailureRendering => ({
  statusOf: (code) => statusOf(code, http.options),
  response: (code) => {
    const headers = failureHeaders(code);
    return headers ? { content: HTML, headers } : { content: HTML };
  },
});

/** GET /login, POST /login and GET /logout (CAS protocol 3.0 §2.1–2.3). */
export function loginRoutes(http: HttpContext, deps: LoginRouteDependencies): Route[] {
  const { login, cookie, formTokens, pages } = deps;
  const cookies = new LoginCookies(http.options.basePath.replace(/\/+$/, '') || '/', http.options.publicUrl?.startsWith('https:') ?? false);
  const { messages } = pages;

  const send = (ctx: Context, status: number, page: Page) => {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', page.contentSecurityPolicy);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.body = page.markup;
  };

  const newToken = (ctx: Context) => formTokens.issue(cookies.browserId(ctx, () => formTokens.newBrowserId()));

  const showForm = async (ctx: Context, status: number, form: Omit<LoginForm, 'formToken'>) => {
    send(ctx, status, pages.loginForm({ ...form, formToken: await newToken(ctx) }));
  };

  /** The TGT the browser's cookie names, if it opens; a cookie that does not open is dropped. */
  const sessionOf = async (ctx: Context): Promise<string | undefined> => {
    const sealed = cookies.get(ctx, TICKET_GRANTING_COOKIE);
    const tgtId = sealed === undefined ? undefined : await cookie.open(sealed);
    if (sealed !== undefined && tgtId === undefined) cookies.clear(ctx, TICKET_GRANTING_COOKIE);
    return tgtId;
  };

  const respond = async (ctx: Context, outcome: LoginOutcome, request: { service?: string; renew: boolean; method: ResponseMethod; sessionSent: boolean }) => {
    switch (outcome.kind) {
      case 'credentials':
        // A session cookie whose TGT is gone is of no use any more.
        if (request.sessionSent && outcome.principal === undefined) cookies.clear(ctx, TICKET_GRANTING_COOKIE);
        return showForm(ctx, 200, { ...request, ...(outcome.principal !== undefined && { principal: outcome.principal }) });
      case 'redirect':
        return backToService(ctx, outcome.service, outcome.ticket, request.method);
      case 'confirm':
        return send(ctx, 200, pages.confirm({ service: outcome.service, principal: outcome.principal, method: request.method, formToken: await newToken(ctx) }));
      case 'signedIn':
        return send(ctx, 200, pages.signedIn(outcome.principal));
      case 'denied':
        return send(ctx, 403, pages.denied(outcome.service, outcome.principal));
    }
  };

  const backToService = (ctx: Context, service: string, ticket: string | undefined, method: ResponseMethod) => {
    if (method === 'POST') return send(ctx, 200, pages.postRedirect(service, ticket));
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(ticket === undefined ? service : withTicket(service, ticket));
  };

  /** Failures as pages; a refused or throttled login shows the form again, with one message. */
  const renderFailures = (form: boolean): Step =>
    async function renderLoginFailures(ctx: Context, next: Next) {
      try {
        await next();
      } catch (thrown) {
        const error = toTesseraError(thrown);
        const status = error ? statusOf(error.code, http.options) : UNEXPECTED_ERROR_STATUS;
        if (!error || status >= 500) reportServerError(http.events, thrown, ctx);
        if (error instanceof ThrottledError || error instanceof RateLimitedError) ctx.set('Retry-After', String(error.retryAfterSeconds));
        if (error instanceof MethodNotAllowedError) ctx.set('Allow', error.allowed.join(', '));
        if (form && (error instanceof AuthenticationFailedError || error instanceof NoCredentialsError || error instanceof ThrottledError || error instanceof RateLimitedError)) {
          return showForm(ctx, status, { ...formAgain(ctx), message: formMessage(error) });
        }
        if (error?.code === 'SERVICE_NOT_AUTHORIZED') return send(ctx, status, pages.notice(messages.unknownServiceHeading, messages.unknownService));
        if (status === 503) return send(ctx, status, pages.notice(messages.unavailableHeading, messages.unavailable));
        if (status >= 500) return send(ctx, status, pages.notice(messages.errorHeading, messages.error));
        return send(ctx, status, pages.notice(messages.badRequestHeading, messages.badRequest));
      }
    };

  const formMessage = (error: TesseraError): string => {
    if (error instanceof ThrottledError) return messages.throttled;
    if (error instanceof RateLimitedError) return messages.rateLimited;
    return messages.loginFailed;
  };

  const loginQuery = z.object({
    service: SERVICE,
    renew: RENEW,
    gateway: flag('Never ask for credentials: without a login session, back to the service with no ticket.'),
    method: METHOD,
  });
  const getLogin = defineRoute({
    method: 'get',
    path: '/login',
    operationId: 'loginPage',
    summary: 'Log in with a browser: single sign-on, or the login form',
    description:
      'With a login session (the `TGC` cookie) and a `service`, a 302 to the service with `ticket=ST-…`, without a form. An unregistered `service` gets an error page, never a redirect.',
    request: { query: loginQuery },
    responses: {
      200: { description: 'The login form; with a session and no service, the logged-in page; with `warn`, a confirmation; with `method=POST`, a form posting the ticket.', content: HTML },
      302: { description: 'Single sign-on: back to the service with a ticket; `gateway` without a session: without one.', headers: LOCATION },
      403: { description: "The service's access rules refuse the logged-in user.", content: HTML },
    },
    errors: { SERVICE_NOT_AUTHORIZED: 'The service is not registered or not enabled: an error page.', INVALID_REQUEST: '`method` is neither GET nor POST, or `service` is no URL.', ...STORE_ERRORS },
    failures: pageFailures(http),
    steps: [renderFailures(false), http.readBody],
    async handle(ctx, { query }) {
      const method = responseMethod(query.method);
      requireNavigable(query.service);
      const sessionTgtId = await sessionOf(ctx);
      const outcome = await login.begin({
        ...(query.service !== undefined && { service: query.service }),
        ...(sessionTgtId !== undefined && { sessionTgtId }),
        renew: query.renew,
        gateway: query.gateway,
        warn: cookies.get(ctx, WARN_COOKIE) === 'true',
        origin: requestOrigin(ctx),
      });
      await respond(ctx, outcome, { ...(query.service !== undefined && { service: query.service }), renew: query.renew, method, sessionSent: sessionTgtId !== undefined });
    },
  });

  const postRequest = credentialRequest(http, {
    parameters: {
      service: SERVICE,
      renew: RENEW,
      method: METHOD,
      warn: flag('Warn before single sign-on to other services from now on (kept in the `CASPRIVACY` cookie).'),
      formToken: text('The anti-forgery token of the form shown: bound to this browser (its `TBROWSER` cookie), valid once.'),
      confirmed: flag('The user confirmed single sign-on to `service` after a `warn` page; no credentials then.'),
    },
  });
  /** The form as the user sent it, for showing it again: never the password. */
  const formAgain = (ctx: Context): Omit<LoginForm, 'formToken'> => {
    let sent: Readonly<Record<string, unknown>> = {};
    try {
      sent = inputOf(ctx).parameters;
    } catch {
      // Unreadable input: an empty form.
    }
    const service = typeof sent['service'] === 'string' ? sent['service'] : undefined;
    const username = typeof sent['username'] === 'string' ? sent['username'] : undefined;
    return {
      ...(service !== undefined && { service }),
      ...(username !== undefined && { username }),
      renew: sent['renew'] === true,
      warn: sent['warn'] === true,
      method: typeof sent['method'] === 'string' && sent['method'].toUpperCase() === 'POST' ? 'POST' : 'GET',
    };
  };
  const postLogin = defineRoute({
    method: 'post',
    path: '/login',
    operationId: 'loginFormSubmit',
    summary: 'Log in with a browser: submit the login form',
    description:
      'A post with no credentials (nor a confirmation for a live login session) gets the form again (400) and leaves its form token unused. Otherwise the form token is checked first (403 and a fresh form without it), then the credentials through the same handlers, throttle and audit as REST. With the throttle module, a client address over its rate gets 429 and the form first. Success sets the `TGC` cookie (HttpOnly, SameSite=Lax, Secure over TLS or with an https `server.publicUrl`, sealed) and goes on to the service.',
    request: postRequest,
    responses: {
      200: { description: 'Logged in: the logged-in page without a service, or the form posting the ticket with `method=POST`.', content: HTML },
      302: { description: 'Logged in: back to the service with `ticket=ST-…`.', headers: LOCATION },
      403: { description: 'The form token is missing, forged, expired or used: the form again. Or the service refuses the user.', content: HTML },
    },
    errors: {
      AUTHENTICATION_FAILED: 'The credentials were refused: the form again, with one message for every reason.',
      NO_CREDENTIALS: 'The form came without username or password: the form again, its token left unused.',
      SERVICE_NOT_AUTHORIZED: 'The service is not registered or not enabled: an error page.',
      INVALID_REQUEST: '`method` is neither GET nor POST, or `service` is no URL.',
      ...STORE_ERRORS,
      STORE_CAPACITY_EXCEEDED: 'The ticket store is full.',
    },
    failures: pageFailures(http),
    steps: [renderFailures(true), ...http.formGuards, http.readBody, ...http.credentialGuards((ctx) => !inputOf(ctx).parameters['confirmed'])],
    async handle(ctx, { parameters }) {
      const method = responseMethod(parameters.method);
      requireNavigable(parameters.service);
      const origin = requestOrigin(ctx);
      const sessionTgtId = await sessionOf(ctx);
      const credentials = parameters.confirmed ? [] : http.credentials(ctx);
      // A token is claimed only by a post that acts: credentials to check, or a confirmation for a live
      // session. Any other post would burn it (and a place in the store) for nothing: the form again.
      if (!parameters.confirmed && credentials.length === 0) throw new NoCredentialsError();
      if (!parameters.confirmed || (await login.hasSession(sessionTgtId))) {
        const refusal = await formTokens.accept(parameters.formToken, cookies.sentBrowserId(ctx));
        if (refusal !== undefined) {
          http.events.emit({ type: 'login.token.refused', reason: refusal }, origin);
          return showForm(ctx, 403, { ...formAgain(ctx), message: messages.formExpired });
        }
      }
      const request = {
        ...(parameters.service !== undefined && { service: parameters.service }),
        ...(sessionTgtId !== undefined && { sessionTgtId }),
        renew: parameters.renew,
        gateway: false,
        origin,
      };
      const shown = { ...(parameters.service !== undefined && { service: parameters.service }), renew: parameters.renew, method, sessionSent: sessionTgtId !== undefined };
      if (parameters.confirmed) return respond(ctx, await login.begin({ ...request, warn: false }), shown);
      const { tgt, outcome } = await login.logIn({ ...request, warn: false, credentials });
      cookies.set(ctx, TICKET_GRANTING_COOKIE, await cookie.seal(tgt.id));
      if (parameters.warn) cookies.set(ctx, WARN_COOKIE, 'true');
      else cookies.clear(ctx, WARN_COOKIE);
      return respond(ctx, outcome, { ...shown, sessionSent: false });
    },
  });

  const getLogout = defineRoute({
    method: 'get',
    path: '/logout',
    operationId: 'logoutPage',
    summary: 'Log out with a browser: end the login session and single logout',
    description:
      'Destroys the TGT of the `TGC` cookie and its STs, tells each service opted in to single logout (asynchronously), clears the cookie. `service` (CAS 3) or `url` (CAS 2) is followed only when it is a registered, enabled service.',
    request: {
      query: z.object({
        service: optionalText('Where to go afterwards: followed only when it is a registered, enabled service.'),
        url: optionalText('CAS 2 name of `service`, read when `service` is absent.'),
      }),
    },
    responses: {
      200: { description: 'The logged-out page.', content: HTML },
      302: { description: 'Logged out, and sent on to the registered service named.', headers: z.object({ Location: z.string() }) },
    },
    errors: STORE_ERRORS,
    failures: pageFailures(http),
    steps: [renderFailures(false), http.readBody],
    async handle(ctx, { query }) {
      await login.logOut(await sessionOf(ctx), requestOrigin(ctx));
      cookies.clear(ctx, TICKET_GRANTING_COOKIE);
      const next = await login.logoutRedirect(query.service ?? query.url);
      if (next !== undefined && isNavigable(next)) {
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(next);
        return;
      }
      send(ctx, 200, pages.loggedOut());
    },
  });

  return [getLogin, postLogin, getLogout];
}

function responseMethod(value: string | undefined): ResponseMethod {
  const method = (value ?? 'GET').toUpperCase();
  if (method === 'GET' || method === 'POST') return method;
  throw new InvalidRequestError("Parameter 'method' must be GET or POST");
}

/** A URL a browser may be sent to: absolute, and not one that runs or embeds content (`javascript:`, `data:`). */
function isNavigable(url: string): boolean {
  try {
    return !['javascript:', 'data:', 'vbscript:', 'blob:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

function requireNavigable(service: string | undefined): void {
  if (service !== undefined && !isNavigable(service)) throw new InvalidRequestError("Parameter 'service' must be an absolute URL");
}

/** The service URL with `ticket` added to its query, before any fragment (as CAS appends it). */
export function withTicket(service: string, ticket: string): string {
  const hash = service.indexOf('#');
  const [base, fragment] = hash < 0 ? [service, ''] : [service.slice(0, hash), service.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}ticket=${encodeURIComponent(ticket)}${fragment}`;
}
