import { LoginFlow, PASSWORD_PROMPT, SECOND_FACTOR_CHOICE, type BrowserLogin, type LoginFormTokens, type PendingLogins, type TicketGrantingCookie } from '@tessera/core/modules/login';
import type { HttpModule, PromptView } from '../../http-module.js';
import type { Branding } from '../../pages/branding.js';
import { loginRoutes } from './login-routes.js';
import type { Messages } from './messages.js';
import { LoginPages } from './pages.js';
import { factorChoiceView, PromptViews } from './prompt-views.js';

export interface LoginModuleOptions {
  readonly login: BrowserLogin;
  readonly cookie: TicketGrantingCookie;
  readonly formTokens: LoginFormTokens;
  /** The logins waiting at a prompt's page (core's LoginFlow holds them). */
  readonly pendingLogins: PendingLogins;
  readonly branding: Branding;
  readonly messages: Messages;
}

/**
 * The `login` module: the browser side of CAS (/login with single sign-on, the prompts of every module
 * in module order, /logout). Its own prompts are the password and the choice among second factors,
 * asked of a user who has several that a service accepts.
 */
export function loginModule(options: LoginModuleOptions): HttpModule {
  return {
    name: 'login',
    routes: (http) => {
      const pages = new LoginPages({ branding: options.branding, messages: options.messages, basePath: http.options.basePath });
      const parts = http.loginPrompts;
      const flow = new LoginFlow(options.login, options.pendingLogins, http.core.secondFactor, parts.map((part) => part.prompt));
      const choice = factorChoiceView(options.messages);
      const views = new PromptViews(parts, { pages: { [PASSWORD_PROMPT.name]: pages.password }, prompts: { [SECOND_FACTOR_CHOICE]: choice } });
      // The choice is asked only among second factors with prompts: its parameter is documented with them.
      const factors = parts.some((part) => part.prompt.phase === 'session' && part.prompt.secondFactor !== undefined);
      const promptViews: PromptView[] = [...(factors ? [choice as PromptView] : []), ...parts.flatMap((part) => (part.prompt.phase === 'credentials' ? [] : [part.view as PromptView]))];
      return loginRoutes(http, { login: options.login, flow, cookie: options.cookie, formTokens: options.formTokens, pages, views }, promptViews);
    },
  };
}
