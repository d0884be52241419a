import { AuthenticationFailedError, type TesseraError } from '@tessera/core';
import type { PendingLogin } from '@tessera/core/modules/login';
import type { Context } from 'koa';
import type { PromptView } from '../../http-module.js';
import { mergeShapes } from '../../request/credentials.js';
import { parameterObject, optionalText, text } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { STORE_ERRORS } from '../../request/credential-request.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { heldLoginForm, HTML, LOCATION, pageFailures, sentParameters, type LoginResponses } from './login-responses.js';

/**
 * POST /login/step: what a prompt's page posts for a login whose credentials are proven and held (a
 * session prompt), or for a ticket held before it is issued (a ticket prompt). Its form token is
 * checked first, then the held login (this browser's, still live, of the user the page names), then
 * the prompt, given what its view read of the post; core's LoginFlow then goes on to the next prompt,
 * the session or the ticket. Only when some module adds a prompt with a page (`views`: their views).
 */
export function loginStepRoute(responses: LoginResponses, views: readonly PromptView[]): Route {
  const { http, cookies, deps, messages } = responses;
  const { flow } = deps;

  /** A login that is gone (expired, finished, another browser's) starts again: the login form, as after an expired form token. */
  const startAgain = (ctx: Context, held?: PendingLogin) => responses.showExpiredForm(ctx, 403, heldLoginForm(held));

  const again = async (ctx: Context, status: number, error: TesseraError) => {
    const sent = sentParameters(ctx);
    const found = await flow.again(typeof sent['pending'] === 'string' ? sent['pending'] : undefined, cookies.sentBrowserId(ctx), requestOrigin(ctx));
    if (found === undefined) return startAgain(ctx);
    const view = deps.views.prompt(found.prompt);
    const message = error instanceof AuthenticationFailedError ? view.page(messages.language, found.context, found.prepared).refused : responses.formMessage(error);
    return responses.showPrompt(ctx, status, found, message);
  };

  const own = {
    formToken: text('The anti-forgery token of the step’s page: bound to this browser (its `TBROWSER` cookie), valid once.'),
    pending: text('The login waiting for this step, as its page names it: held for this browser until a login form would expire.'),
    username: optionalText('The user of the login, as the step’s page names it: the throttle counts a refused step against this user.'),
  };
  // Typed by the route's own schemas: the prompts' values are their views' to read (PromptView.read).
  const parameters = mergeShapes([own, ...views.map((view) => view.parameters)], 'parameter') as typeof own;
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
      const browserId = cookies.sentBrowserId(ctx);
      const formAgain = async () => heldLoginForm((await flow.held(sent.pending, browserId, origin))?.held);
      if (!(await responses.claimFormToken(ctx, sent.formToken, origin, formAgain))) return;
      const found = await flow.held(sent.pending, browserId, origin);
      if (found === undefined || found.context.authentication.principal.id !== sent.username) return startAgain(ctx, found?.held);
      const progress = await flow.answer(found, deps.views.prompt(found.prompt).read(sent), origin, responses.browser(ctx));
      if (progress.kind === 'gone') return startAgain(ctx, found.held);
      return responses.show(ctx, progress);
    },
  });
}
