import type { HttpContext } from '../../http-module.js';
import type { Route } from '../../routes/route.js';
import { loginFormRoute } from './login-form-route.js';
import { loginPageRoute } from './login-page-route.js';
import { LoginResponses, type LoginRouteDependencies } from './login-responses.js';
import { loginStepRoute } from './login-step-route.js';
import { logoutRoute } from './logout-route.js';

export { withTicket, type LoginRouteDependencies } from './login-responses.js';

/** GET /login, POST /login, GET /logout (CAS protocol 3.0 §2.1–2.3), and POST /login/step when some module adds a step or a ticket step. */
export function loginRoutes(http: HttpContext, deps: LoginRouteDependencies): Route[] {
  const responses = new LoginResponses(http, deps);
  const { steps, ticketSteps } = http.loginForm;
  const stepRoutes = steps.length > 0 || ticketSteps.length > 0 ? [loginStepRoute(responses, steps, ticketSteps)] : [];
  return [loginPageRoute(responses), loginFormRoute(responses), ...stepRoutes, logoutRoute(responses)];
}
