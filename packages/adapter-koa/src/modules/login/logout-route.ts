import { z } from 'zod';
import { optionalText } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { STORE_ERRORS } from '../../request/credential-request.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { TICKET_GRANTING_COOKIE } from './login-cookies.js';
import { HTML, isNavigable, pageFailures, withQuery, type LoginResponses } from './login-responses.js';

/** GET /logout (CAS protocol 3.0 §2.3): the login session ends, with single logout. */
export function logoutRoute(responses: LoginResponses): Route {
  const { http, cookies, deps } = responses;
  return defineRoute({
    method: 'get',
    path: '/logout',
    operationId: 'logoutPage',
    summary: 'Log out with a browser: end the login session and single logout',
    description:
      'Destroys the TGT of the `TGC` cookie and its STs, tells each service opted in to back-channel single logout (asynchronously), clears the cookie. `service` (CAS 3) or `url` (CAS 2) is followed only when it is a registered, enabled service. Services opted in to front-channel logout are called by the browser from the logged-out page (an image each, `logoutRequest` in the query), which then goes on to `service` by a script. A module may then send the browser on to end a session elsewhere (the delegation module: an upstream identity provider’s logout), from where it comes back here.',
    request: {
      query: z.object({
        service: optionalText('Where to go afterwards: followed only when it is a registered, enabled service.'),
        url: optionalText('CAS 2 name of `service`, read when `service` is absent.'),
      }),
    },
    responses: {
      200: { description: 'The logged-out page; with front-channel calls, also when going on to `service` afterwards.', content: HTML },
      302: { description: 'Logged out, and sent on to the registered service named, or first to a logout elsewhere a module asks for.', headers: z.object({ Location: z.string() }) },
    },
    errors: STORE_ERRORS,
    failures: pageFailures(http),
    steps: [responses.renderFailures(), http.readBody],
    async handle(ctx, { query }) {
      const session = await responses.sessionOf(ctx);
      // Asked while the session is still there; acted on only once it has ended (whatever happens elsewhere, the session ends here).
      const asked = session === undefined ? [] : await Promise.allSettled(http.afterLogout.map((module) => module.before(ctx, session)));
      const frontChannel = await deps.login.logOut(session, requestOrigin(ctx));
      cookies.clear(ctx, TICKET_GRANTING_COOKIE);
      // A module that throws broke its contract: answered as the error it is, once the session has ended.
      const afterwards = asked.map((answer) => {
        if (answer.status === 'rejected') throw answer.reason;
        return answer.value;
      });
      const found = await deps.login.logoutRedirect(query.service ?? query.url, requestOrigin(ctx));
      const service = found !== undefined && isNavigable(found) ? found : undefined;
      let next = service;
      for (const step of afterwards) {
        const elsewhere = await step?.(service);
        if (elsewhere !== undefined) {
          next = elsewhere;
          break;
        }
      }
      if (next !== undefined && frontChannel.length === 0) {
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(next);
        return;
      }
      const calls = frontChannel.map(({ url, logoutRequest }) => withQuery(url, 'logoutRequest', logoutRequest));
      responses.send(ctx, 200, deps.pages.loggedOut({ calls, ...(next !== undefined && { next }) }));
    },
  });
}
