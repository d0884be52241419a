import type { BrowserLogin, LoginFormTokens, PendingLogins, TicketGrantingCookie } from '@tessera/core/modules/login';
import type { HttpModule } from '../../http-module.js';
import type { Branding } from './branding.js';
import { loginRoutes } from './login-routes.js';
import type { Messages } from './messages.js';
import { LoginPages } from './pages.js';

export interface LoginModuleOptions {
  readonly login: BrowserLogin;
  readonly cookie: TicketGrantingCookie;
  readonly formTokens: LoginFormTokens;
  /** The logins waiting for a step of another module (HttpContext.loginForm's steps). */
  readonly pendingLogins: PendingLogins;
  readonly branding: Branding;
  readonly messages: Messages;
}

/** The `login` module: the browser side of CAS (/login with single sign-on, the steps other modules add, /logout). */
export function loginModule(options: LoginModuleOptions): HttpModule {
  return {
    name: 'login',
    routes: (http) => {
      const pages = new LoginPages({
        branding: options.branding,
        messages: options.messages,
        basePath: http.options.basePath,
        fields: http.loginForm.fields,
      });
      return loginRoutes(http, { login: options.login, cookie: options.cookie, formTokens: options.formTokens, pendingLogins: options.pendingLogins, pages });
    },
  };
}
