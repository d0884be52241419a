import type { HttpContext, PromptView } from '../../http-module.js';
import type { Route } from '../../routes/route.js';
import { loginFormRoute } from './login-form-route.js';
import { loginPageRoute } from './login-page-route.js';
import { LoginResponses, type LoginRouteDependencies } from './login-responses.js';
import { loginStepRoute } from './login-step-route.js';
import { logoutRoute } from './logout-route.js';

export { withTicket, type LoginRouteDependencies } from './login-responses.js';

/**
 * GET /login, POST /login, GET /logout (CAS protocol 3.0 §2.1–2.3), and POST /login/step when some
 * prompt has a page of its own (`promptViews`: the views of those that can be asked).
 */
export function loginRoutes(http: HttpContext, deps: LoginRouteDependencies, promptViews: readonly PromptView[]): Route[] {
  const responses = new LoginResponses(http, deps);
  const stepRoutes = promptViews.length > 0 ? [loginStepRoute(responses, promptViews)] : [];
  return [loginPageRoute(responses), loginFormRoute(responses), ...stepRoutes, logoutRoute(responses)];
}
