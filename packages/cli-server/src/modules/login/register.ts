import type { Branding } from '@tessera/adapter-koa';
import { LoginBrowserSessions, loginModule, MESSAGES } from '@tessera/adapter-koa/modules/login';
import { BrowserLogin, deriveLoginKeys, LoginFormTokens, PendingLogins, RecordFormTokenStore, RecordServiceSessionStore, SingleLogout, TicketGrantingCookie } from '@tessera/core/modules/login';
import { key, KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { loginSections } from './config.js';
import { HttpLogoutRequestSender } from './back-channel-sender.js';
import { loadLoginSecret } from './login-key.js';
import { SingleLogoutJob } from './single-logout-job.js';

const SENDER = key<HttpLogoutRequestSender>('login: logout request sender');
const COOKIE = key<TicketGrantingCookie>('login: ticket-granting cookie');
const SINGLE_LOGOUT = key<SingleLogout>('login: single logout');
/** The record namespace of the logins waiting for a step. */
const PENDING_LOGINS = 'login.pending';

/**
 * `login`: /login and /logout for browsers on the central authentication, and the throttle and audit
 * every login has; single logout, told of every validation and logout (REST's included) and checking
 * for expired sessions in the background. Its single-logout records, used form tokens and the logins
 * waiting for a step (`login.pending`) are namespaces of the storage's records (RecordStores). The
 * cookie and form keys come from `login.key` or `login.keyFile`. A login runs the prompts every
 * module contributes (HttpContext.loginPrompts) in module order. Other modules take the browser's
 * session cookie (`KEYS.BrowserSessions`) and the pages' look (`KEYS.PageBranding`) from it.
 */
export const registerLoginModule: ModuleRegistration<typeof loginSections> = (binder, { login: settings }, { server }) => {
  binder.resolved(SENDER, [KEYS.EventSink], (events) => new HttpLogoutRequestSender(settings.singleLogout, events));
  binder.resolved(
    SINGLE_LOGOUT,
    [KEYS.RecordStores, KEYS.TicketStore, KEYS.ServiceRegistry, KEYS.ServiceTypes, SENDER, KEYS.Clock, KEYS.RandomSource, KEYS.EventSink],
    (records, tickets, registry, types, sender, clock, random, events) =>
      new SingleLogout(new RecordServiceSessionStore(records), tickets, registry, types, sender, clock, random, events, settings.singleLogout.maxPerSession),
  );
  binder.resolved(KEYS.SessionListener, [SINGLE_LOGOUT], (singleLogout) => singleLogout);
  binder.resolved(
    KEYS.BackgroundJob,
    [SINGLE_LOGOUT, SENDER, KEYS.EventSink],
    (singleLogout, sender, events) => new SingleLogoutJob(singleLogout, sender, settings.singleLogout.expiryCheckSeconds, events),
  );
  binder.resolved(COOKIE, [KEYS.RandomSource], (random) => new TicketGrantingCookie(deriveLoginKeys(loadLoginSecret(settings, random))));
  // What other modules take of the login: the session's cookie (an OpenID Connect logout clears it) and the pages' look.
  binder.resolved(KEYS.BrowserSessions, [COOKIE], (cookie) => new LoginBrowserSessions(cookie, server.basePath, server.publicUrl?.startsWith('https:') ?? false));
  const { branding } = settings;
  const look: Branding = {
    title: branding.title,
    colours: branding.colours,
    ...(branding.logoUrl !== undefined && { logoUrl: branding.logoUrl }),
    ...(branding.logoAlt !== undefined && { logoAlt: branding.logoAlt }),
    ...(branding.text !== undefined && { text: branding.text }),
  };
  binder.constant(KEYS.PageBranding, look);
  binder.resolved(
    KEYS.HttpModule,
    [KEYS.CasCore, KEYS.TicketStore, KEYS.RecordStores, SINGLE_LOGOUT, KEYS.EventSink, KEYS.Clock, KEYS.RandomSource, COOKIE],
    (core, tickets, records, singleLogout, events, clock, random, cookie) => {
      const keys = deriveLoginKeys(loadLoginSecret(settings, random));
      return loginModule({
        login: new BrowserLogin(core, tickets, events, singleLogout),
        cookie,
        formTokens: new LoginFormTokens(keys, new RecordFormTokenStore(records), clock, random, settings.formTokenLifetimeSeconds),
        // A login waits at a prompt's page as long as its form would stay valid.
        pendingLogins: new PendingLogins(records.namespace(PENDING_LOGINS), clock, random, settings.formTokenLifetimeSeconds),
        branding: look,
        messages: MESSAGES[settings.language],
      });
    },
  );
};
