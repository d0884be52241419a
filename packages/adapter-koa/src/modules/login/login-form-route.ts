import { NoCredentialsError } from '@tessera/core';
import { flag, text } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { credentialRequest, SERVICE, STORE_ERRORS } from '../../request/credential-request.js';
import { inputOf } from '../../routes/route-input.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { HTML, LOCATION, METHOD, pageFailures, RENEW, requireNavigable, responseMethod, type LoginResponses } from './login-responses.js';

/**
 * POST /login (CAS protocol 3.0 §2.2): the login form's credentials, or the confirmation of a `warn`
 * page; a proven login goes on to the prompts it needs (core's LoginFlow), then to its session.
 */
export function loginFormRoute(responses: LoginResponses): Route {
  const { http } = responses;
  const { login, flow } = responses.deps;
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
  return defineRoute({
    method: 'post',
    path: '/login',
    operationId: 'loginFormSubmit',
    summary: 'Log in with a browser: submit the login form',
    description:
      'A post with no credentials (nor a confirmation for a live login session) gets the form again (400) and leaves its form token unused. Otherwise the form token is checked first (403 and a fresh form without it), then the credentials through the same handlers, throttle and audit as REST. With the throttle module, a client address over its rate gets 429 and the form first. Success sets the `TGC` cookie (HttpOnly, SameSite=Lax, Secure over TLS or with an https `server.publicUrl`, sealed) and goes on to the service.',
    request: postRequest,
    responses: {
      200: { description: 'Logged in: the logged-in page without a service, or the form posting the ticket with `method=POST`.', content: HTML },
      302: { description: 'Logged in: back to the service with `ticket=ST-…`. A service whose access strategy refuses the request and names an `unauthorizedRedirectUrl`: a 302 there instead.', headers: LOCATION },
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
    steps: [responses.renderFailures(responses.showFormAgain), ...http.formGuards, http.readBody, ...http.credentialGuards((ctx) => !inputOf(ctx).parameters['confirmed'])],
    async handle(ctx, { parameters }) {
      const method = responseMethod(parameters.method);
      requireNavigable(parameters.service);
      const origin = requestOrigin(ctx);
      const sessionTgtId = await responses.sessionOf(ctx);
      const credentials = parameters.confirmed ? [] : http.credentials(ctx);
      // A token is claimed only by a post that acts: credentials to check, or a confirmation for a live
      // session. Any other post would burn it (and a place in the store) for nothing: the form again.
      if (!parameters.confirmed && credentials.length === 0) throw new NoCredentialsError();
      const acts = !parameters.confirmed || (await login.hasSession(sessionTgtId));
      if (acts && !(await responses.claimFormToken(ctx, parameters.formToken, origin, () => responses.formAgain(ctx)))) return;
      const request = {
        ...(parameters.service !== undefined && { service: parameters.service }),
        ...(sessionTgtId !== undefined && { sessionTgtId }),
        renew: parameters.renew,
        gateway: false,
        method,
        origin,
      };
      // A confirmation goes on as single sign-on; credentials as a new login, which keeps the `warn` asked for.
      if (parameters.confirmed) return responses.show(ctx, await flow.begin({ ...request, warn: false }, responses.browser(ctx)));
      return responses.show(ctx, await flow.logIn({ ...request, warn: parameters.warn, credentials }, responses.browser(ctx)));
    },
  });
}
