import { z } from 'zod';
import { flag } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { SERVICE, STORE_ERRORS } from '../../request/credential-request.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { WARN_COOKIE } from './login-cookies.js';
import { HTML, LOCATION, METHOD, pageFailures, RENEW, requireNavigable, responseMethod, type LoginResponses } from './login-responses.js';

/** GET /login (CAS protocol 3.0 §2.1): single sign-on, gateway, or the login form. */
export function loginPageRoute(responses: LoginResponses): Route {
  const { http, cookies, deps } = responses;
  const loginQuery = z.object({
    service: SERVICE,
    renew: RENEW,
    gateway: flag('Never ask for credentials: without a login session, back to the service with no ticket.'),
    method: METHOD,
  });
  return defineRoute({
    method: 'get',
    path: '/login',
    operationId: 'loginPage',
    summary: 'Log in with a browser: single sign-on, or the login form',
    description:
      'With a login session (the `TGC` cookie) and a `service`, a 302 to the service with `ticket=ST-…`, without a form. An unregistered `service` gets an error page, never a redirect; a registered one whose access strategy refuses the request (disabled, outside its time window, another client, or the user\'s attributes) and names an `unauthorizedRedirectUrl` sends the browser there.',
    request: { query: loginQuery },
    responses: {
      200: { description: 'The login form; with a session and no service, the logged-in page; with `warn`, a confirmation; with `method=POST`, a form posting the ticket.', content: HTML },
      302: { description: 'Single sign-on: back to the service with a ticket; `gateway` without a session: without one. A service whose access strategy refuses the request and names an `unauthorizedRedirectUrl`: a 302 there instead.', headers: LOCATION },
      403: { description: "The service's access rules refuse the logged-in user.", content: HTML },
    },
    errors: { SERVICE_NOT_AUTHORIZED: 'The service is not registered or not enabled: an error page.', INVALID_REQUEST: '`method` is neither GET nor POST, or `service` is no URL.', ...STORE_ERRORS },
    failures: pageFailures(http),
    steps: [responses.renderFailures(), http.readBody],
    async handle(ctx, { query }) {
      const method = responseMethod(query.method);
      requireNavigable(query.service);
      const sessionTgtId = await responses.sessionOf(ctx);
      const request = {
        ...(query.service !== undefined && { service: query.service }),
        ...(sessionTgtId !== undefined && { sessionTgtId }),
        renew: query.renew,
        gateway: query.gateway,
        warn: cookies.get(ctx, WARN_COOKIE) === 'true',
        method,
        origin: requestOrigin(ctx),
      };
      await responses.show(ctx, await deps.flow.begin(request, responses.browser(ctx)));
    },
  });
}
