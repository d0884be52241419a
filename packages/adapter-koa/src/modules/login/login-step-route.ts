import { AuthenticationFailedError, type TesseraError } from '@tessera/core';
import type { PendingLogin } from '@tessera/core/modules/login';
import type { Context } from 'koa';
import type { LoginStep, LoginStepContext, TicketStep, TicketStepContext } from '../../http-module.js';
import { mergeShapes } from '../../request/credentials.js';
import { parameterObject, optionalText, text } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { STORE_ERRORS } from '../../request/credential-request.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { heldLogin, heldLoginForm, HTML, LOCATION, pageFailures, responseMethod, sentParameters, type LoginResponses, type TicketRequest } from './login-responses.js';

/** A held login at a step of its login, or a held ticket at a ticket step, with what the step is asked about. */
type Current =
  | { readonly kind: 'login'; readonly held: PendingLogin; readonly step: LoginStep; readonly context: LoginStepContext }
  | { readonly kind: 'ticket'; readonly held: PendingLogin; readonly step: TicketStep; readonly context: TicketStepContext };

/**
 * POST /login/step: what a step's page posts for a login whose credentials are proven and held
 * (HttpContext.loginForm's steps), or for a ticket held before it is issued (its ticket steps). Its
 * form token is checked first, then the held login (this browser's, still live), then the step; after
 * the last step of a login the session is made as after the form, after the last ticket step the
 * ticket is issued. Only when some module adds a step.
 */
export function loginStepRoute(responses: LoginResponses, steps: readonly LoginStep[], ticketSteps: readonly TicketStep[]): Route {
  const { http, cookies, deps, messages } = responses;
  const { login, pendingLogins } = deps;

  /** The held login a post names, with its current step and what the step is asked about; undefined when it is gone. */
  const current = async (ctx: Context, pendingId: unknown): Promise<Current | undefined> => {
    const held = await pendingLogins.find(typeof pendingId === 'string' ? pendingId : undefined, cookies.sentBrowserId(ctx));
    if (held === undefined) return undefined;
    const service = await login.service(held.service, requestOrigin(ctx));
    if (held.beforeTicket !== undefined) {
      const step = ticketSteps.find((candidate) => candidate.name === held.steps[0]);
      if (step === undefined || service === undefined || held.service === undefined) return undefined;
      return { kind: 'ticket', held, step, context: { authentication: held.authentication, service, url: held.service } };
    }
    const step = steps.find((candidate) => candidate.name === held.steps[0]);
    if (step === undefined) return undefined;
    return { kind: 'login', held, step, context: { authentication: held.authentication, ...(service && { service }) } };
  };

  /** A login that is gone (expired, finished, another browser's) starts again: the login form, as after an expired form token. */
  const startAgain = (ctx: Context, held?: PendingLogin) => responses.showExpiredForm(ctx, 403, heldLoginForm(held));

  const again = async (ctx: Context, status: number, error: TesseraError) => {
    const sent = sentParameters(ctx);
    const found = await current(ctx, sent['pending']);
    if (found === undefined || typeof sent['pending'] !== 'string') return startAgain(ctx);
    if (found.kind === 'ticket') return responses.showTicketStep(ctx, status, { step: found.step, pending: sent['pending'], context: found.context, message: responses.formMessage(error) });
    const message = error instanceof AuthenticationFailedError ? found.step.page(messages.language, found.context).refused : responses.formMessage(error);
    return responses.showStep(ctx, status, { step: found.step, pending: sent['pending'], context: found.context, message });
  };

  const own = {
    formToken: text('The anti-forgery token of the step’s page: bound to this browser (its `TBROWSER` cookie), valid once.'),
    pending: text('The login waiting for this step, as its page names it: held for this browser until a login form would expire.'),
    username: optionalText('The user of the login, as the step’s page names it: the throttle counts a refused step against this user.'),
  };
  // Typed by the route's own schemas: the steps' values are theirs to read (LoginStep.complete).
  const parameters = mergeShapes([own, ...steps.map((step) => step.parameters), ...ticketSteps.map((step) => step.parameters)], 'parameter') as typeof own;
  return defineRoute({
    method: 'post',
    path: '/login/step',
    operationId: 'loginStepSubmit',
    summary: 'Log in with a browser: submit a step after the credentials',
    description:
      'A step (such as a one-time code) that a module asks of a login after its credentials are proven and before its session is made, or a ticket step (such as a consent to attribute release) asked before a service ticket is issued to a session. The form token is checked first, then the held login: one that expired, was finished or is another browser’s gets the login form again (403). A refused step gets its page again (401), counted by the throttle as a failed login of that user. After the last step the login ends as `POST /login` does; after the last ticket step the ticket is issued, unless the step stopped it with a page of its own.',
    request: { parameters: parameterObject(parameters, 'Any other parameter is ignored.') },
    responses: {
      200: { description: 'The next step’s page; or logged in: the logged-in page without a service, or the form posting the ticket with `method=POST`; or a ticket step’s own page instead of the ticket (a consent denied).', content: HTML },
      302: { description: 'Logged in: back to the service with `ticket=ST-…`. A service whose access strategy refuses the request and names an `unauthorizedRedirectUrl`: a 302 there instead.', headers: LOCATION },
      403: { description: 'The form token is missing, forged, expired or used, or the login is gone: the login form again. Or the service refuses the user.', content: HTML },
    },
    errors: {
      AUTHENTICATION_FAILED: 'The step refused what was posted: its page again, with its message.',
      SERVICE_NOT_AUTHORIZED: 'The service is not registered or not enabled any more: an error page.',
      ...STORE_ERRORS,
      STORE_CAPACITY_EXCEEDED: 'The ticket store is full.',
    },
    failures: pageFailures(http),
    steps: [responses.renderFailures(again), ...http.formGuards, http.readBody, ...http.credentialGuards()],
    async handle(ctx, { parameters: sent }) {
      const origin = requestOrigin(ctx);
      const formAgain = async () => heldLoginForm(await pendingLogins.find(sent.pending, cookies.sentBrowserId(ctx)));
      if (!(await responses.claimFormToken(ctx, sent.formToken, origin, formAgain))) return;
      const browserId = cookies.sentBrowserId(ctx);
      const found = await current(ctx, sent.pending);
      if (found === undefined || sent.pending === undefined || browserId === undefined || found.held.authentication.principal.id !== sent.username) return startAgain(ctx, found?.held);
      if (found.kind === 'ticket') return afterTicketStep(ctx, found, sent.pending, browserId, sent);
      const { held, step, context } = found;
      const authentication = await step.complete(context, sent, origin);
      if (authentication.principal.id !== context.authentication.principal.id) throw new AuthenticationFailedError(['A step proved another user than the login.']);
      // One proof makes one session: whoever takes the held login first goes on.
      const finished = await pendingLogins.finish(sent.pending, browserId);
      if (finished === undefined) return startAgain(ctx, held);
      const method = responseMethod(held.method);
      const request = heldLogin({
        ...(held.service !== undefined && { service: held.service }),
        ...(held.session !== undefined && { sessionTgtId: held.session }),
        renew: held.renew,
        warn: held.warn,
        ...(held.stepUp === true && { stepUp: true }),
        method,
        origin,
      });
      const rest = steps.filter((candidate) => held.steps.slice(1).includes(candidate.name));
      return responses.proceed(ctx, request, { ...context, authentication }, rest);
    },
  });

  /** A ticket step done: on to the next one it needs, then the ticket; or the step's own page instead (no ticket, the session stays). */
  async function afterTicketStep(ctx: Context, found: Extract<Current, { kind: 'ticket' }>, pending: string, browserId: string, sent: Readonly<Record<string, unknown>>): Promise<void> {
    const { held, step, context } = found;
    const outcome = await step.complete(context, sent, requestOrigin(ctx));
    // One answer per held ticket: whoever takes it first goes on.
    const finished = await pendingLogins.finish(pending, browserId);
    if (finished === undefined || held.session === undefined || held.beforeTicket === undefined) return startAgain(ctx, held);
    if (!outcome.proceed) {
      const stopped = outcome.page(messages.language);
      return responses.send(ctx, 200, deps.pages.stepStopped(stopped.heading, stopped.content));
    }
    const ticket: TicketRequest = { session: held.session, url: context.url, fromNewLogin: held.beforeTicket.fromNewLogin, method: responseMethod(held.method) };
    return responses.beforeTicket(ctx, ticket, context, ticketSteps.filter((candidate) => held.steps.slice(1).includes(candidate.name)));
  }
}
