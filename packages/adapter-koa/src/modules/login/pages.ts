import { hash } from 'node:crypto';
import type { JsonValue } from '@tessera/core';
import { stylesheet, type Branding } from '../../pages/branding.js';
import { formatMessage, html, Html } from '../../pages/html.js';
import { serviceHost } from '../../pages/service-host.js';
import type { LoginPageView, PromptPage, ScriptFile } from '../../http-module.js';
import type { Messages } from './messages.js';

/** What every page is built with: the operator's branding, the language, where the routes are. */
export interface PageSettings {
  readonly branding: Branding;
  readonly messages: Messages;
  /** `/cas`, or `''` at the root. */
  readonly basePath: string;
}

/** A part of the login page as the page shows it: its view, and what its prompt prepared. */
export interface ShownPart {
  readonly view: LoginPageView;
  readonly prepared?: JsonValue;
}

/** A page and the headers that go with it. */
export interface Page {
  readonly markup: string;
  readonly contentSecurityPolicy: string;
}

/** The POST redirect submits its form by itself. */
const AUTO_SUBMIT = 'document.forms[0].submit();';

/**
 * The logout page with front-channel calls: once every call's image settled (loaded or failed), or
 * after 5 s, the browser goes on to the continue link, when the page has one.
 */
const AFTER_FRONT_CHANNEL =
  "(function(){var next=document.getElementById('continue');var calls=[].slice.call(document.querySelectorAll('img.logout-call'));var left=calls.length;var gone=false;" +
  'function go(){if(!gone&&next){gone=true;location.replace(next.href);}}' +
  'function settled(){left-=1;if(left<=0)go();}' +
  "calls.forEach(function(call){if(call.complete)settled();else{call.addEventListener('load',settled);call.addEventListener('error',settled);}});" +
  'if(left<=0)go();setTimeout(go,5000);})();';

/** The pages of the login module, each a whole HTML document in the configured language. */
export class LoginPages {
  private readonly style: string;
  private readonly styleHash: string;

  constructor(private readonly settings: PageSettings) {
    this.style = stylesheet(settings.branding.colours);
    this.styleHash = sha256(this.style);
  }

  get messages(): Messages {
    return this.settings.messages;
  }

  /** The login page's own part (core's password prompt): username and password, filled in again as the user sent them (never the password). */
  readonly password: LoginPageView = {
    markup: (_language, _prepared, form) => {
      const text = this.settings.messages;
      return html`<div class="field"><label for="username">${text.username}</label><input type="text" id="username" name="username" value="${form.username ?? ''}" autocomplete="username" autocapitalize="none" spellcheck="false" required${form.username ? undefined : html` autofocus`}${form.describedBy ? html` aria-describedby="${form.describedBy}"` : undefined}></div>
<div class="field"><label for="password">${text.password}</label><input type="password" id="password" name="password" autocomplete="current-password" required${form.username ? html` autofocus` : undefined}></div>`;
    },
  };

  /**
   * The login form: its parts (the password's and those of other modules, each from what its prompt
   * prepared) between the hidden fields and the `warn` box. `message` says why it is shown again;
   * `principal` who is logged in already (renew).
   */
  loginForm(form: LoginForm): Page {
    const { messages: text, branding } = this.settings;
    const state = { ...(form.username !== undefined && { username: form.username }), ...(form.message !== undefined && { describedBy: 'login-message' }) };
    const parts = form.parts.map((part) => part.view.markup(text.language, part.prepared, state));
    const scripts = form.parts.flatMap((part) => part.view.script?.(part.prepared) ?? []);
    const files = form.parts.flatMap((part) => part.view.scriptFiles ?? []);
    const content = html`${form.service === undefined ? undefined : this.relyingPartyIntro(form.service, form.relyingParty)}
${form.principal === undefined ? undefined : html`<p>${formatMessage(text.renewNotice, { principal: form.principal })}</p>`}
${branding.text === undefined ? undefined : html`<p>${branding.text}</p>`}
${form.message === undefined ? undefined : html`<p class="message" id="login-message" role="alert">${form.message}</p>`}
<form method="post" action="${this.path('/login')}">
<input type="hidden" name="formToken" value="${form.formToken}">
${form.service === undefined ? undefined : html`<input type="hidden" name="service" value="${form.service}">`}
${form.renew ? html`<input type="hidden" name="renew" value="true">` : undefined}
${form.method === 'POST' ? html`<input type="hidden" name="method" value="POST">` : undefined}
${parts.map((part, index) => (index === 0 ? part : html`
${part}`))}
<div class="check"><input type="checkbox" id="warn" name="warn" value="true"${form.warn ? html` checked` : undefined}><label for="warn">${text.warn}</label></div>
<button type="submit">${text.submit}</button>
</form>`;
    return this.page(text.loginHeading, content, scripts, [], files);
  }

  /**
   * Where the login goes on to: the relying party's name (and the host a person knows it by), its logo,
   * and links to its information and privacy pages, where its definition has them; the host alone
   * for a service the form cannot name.
   */
  private relyingPartyIntro(service: string, party: ShownRelyingParty | undefined): Html {
    const { messages: text } = this.settings;
    const host = serviceHost(party?.shownUrl ?? service);
    const name = party?.name.trim();
    const shown = name === undefined || name === '' || name === host ? host : `${name} (${host})`;
    const logo = party?.logo !== undefined && isSecureUrl(party.logo) ? html`<img class="service-logo" src="${party.logo}" alt="">` : undefined;
    const links = [
      party?.informationUrl !== undefined && isWebUrl(party.informationUrl) ? html`<a href="${party.informationUrl}" rel="noopener noreferrer">${text.serviceInformation}</a>` : undefined,
      party?.privacyUrl !== undefined && isWebUrl(party.privacyUrl) ? html`<a href="${party.privacyUrl}" rel="noopener noreferrer">${text.servicePrivacy}</a>` : undefined,
    ].filter((link) => link !== undefined);
    return html`${logo}<p>${formatMessage(text.loginForService, { service: shown })}</p>${links.length === 0 ? undefined : html`
<p class="service-links">${links.map((link, index) => (index === 0 ? link : html` · ${link}`))}</p>`}`;
  }

  /**
   * A prompt's page for a held login (after the credentials, before a ticket): the prompt's own
   * content in a form posting to /login/step with a fresh form token, the held login's id and its user.
   */
  step(step: LoginStepForm): Page {
    const { page } = step;
    const content = html`${step.message === undefined ? undefined : html`<p class="message" id="step-message" role="alert">${step.message}</p>`}
<form method="post" action="${this.path('/login/step')}">
<input type="hidden" name="formToken" value="${step.formToken}">
<input type="hidden" name="pending" value="${step.pending}">
<input type="hidden" name="username" value="${step.username}">
${page.content}
<div class="buttons"><button type="submit"${page.submitValue ? html` name="${page.submitValue.name}" value="${page.submitValue.value}"` : undefined}>${page.submit}</button>${
      page.alternative ? html`<button type="submit" class="secondary" name="${page.alternative.name}" value="${page.alternative.value}">${page.alternative.label}</button>` : undefined
    }</div>
</form>`;
    return this.page(page.heading, content, page.script === undefined ? [] : [page.script], [], page.scriptFiles ?? []);
  }

  /** A prompt's own page in place of the rest of the login (a consent denied): its heading and content, and a way to log out. */
  stepStopped(heading: string, content: Html): Page {
    const text = this.settings.messages;
    return this.page(heading, html`${content}\n<p><a href="${this.path('/logout')}">${text.logOut}</a></p>`);
  }

  signedIn(principal: string): Page {
    const text = this.settings.messages;
    return this.page(text.signedInHeading, html`<p>${formatMessage(text.signedIn, { principal })}</p>\n<p><a href="${this.path('/logout')}">${text.logOut}</a></p>`);
  }

  /** `warn`: a button that asks /login again for the ticket, once the user agrees. */
  confirm(confirmation: { service: string; principal: string; method: ResponseMethod; formToken: string }): Page {
    const text = this.settings.messages;
    const content = html`<p>${formatMessage(text.confirm, { service: serviceHost(confirmation.service), principal: confirmation.principal })}</p>
<form method="post" action="${this.path('/login')}">
<input type="hidden" name="formToken" value="${confirmation.formToken}">
<input type="hidden" name="service" value="${confirmation.service}">
<input type="hidden" name="confirmed" value="true">
${confirmation.method === 'POST' ? html`<input type="hidden" name="method" value="POST">` : undefined}
<button type="submit">${text.continue}</button>
</form>`;
    return this.page(text.confirmHeading, content);
  }

  /** `method=POST`: the ticket (if any) posted to the service by a form that submits itself. */
  postRedirect(service: string, ticket: string | undefined): Page {
    const text = this.settings.messages;
    const content = html`<p>${text.redirect}</p>
<form method="post" action="${service}">
${ticket === undefined ? undefined : html`<input type="hidden" name="ticket" value="${ticket}">`}
<button type="submit">${text.continue}</button>
</form>
`;
    return this.page(text.redirectHeading, content, [AUTO_SUBMIT]);
  }

  denied(service: string, principal: string): Page {
    const text = this.settings.messages;
    return this.page(text.deniedHeading, html`<p>${formatMessage(text.denied, { service: serviceHost(service), principal })}</p>\n<p><a href="${this.path('/logout')}">${text.logOut}</a></p>`);
  }

  /**
   * The logged-out page. With front-channel calls (single logout through the browser), each is an
   * image the browser loads from the service's logout URL (its origin allowed in the page's CSP), and
   * with `next` a script goes on there once they settled; without script, a link does.
   */
  loggedOut(frontChannel: { calls: readonly string[]; next?: string } = { calls: [] }): Page {
    const text = this.settings.messages;
    if (frontChannel.calls.length === 0) return this.page(text.loggedOutHeading, html`<p>${text.loggedOut}</p>`);
    const content = html`<p>${text.loggedOut}</p>
${frontChannel.calls.map((call) => html`<img class="logout-call" src="${call}" alt="" width="1" height="1">`)}
${frontChannel.next === undefined ? undefined : html`<p><a id="continue" href="${frontChannel.next}">${text.continue}</a></p>`}`;
    const origins = [...new Set(frontChannel.calls.map((call) => new URL(call).origin))];
    return this.page(text.loggedOutHeading, content, frontChannel.next === undefined ? [] : [AFTER_FRONT_CHANNEL], origins);
  }

  /** A page that only says something went wrong: a heading and one paragraph. */
  notice(heading: string, paragraph: string): Page {
    return this.page(heading, html`<p>${paragraph}</p>`);
  }

  private path(route: string): string {
    return `${this.settings.basePath}${route}`;
  }

  /**
   * A whole page; each script is placed after the content, inline, and allowed by its hash alone; the
   * script files before them, each allowed by its URL alone and checked by its integrity digest.
   */
  private page(heading: string, content: Html, scripts: readonly string[] = [], imageOrigins: readonly string[] = [], scriptFiles: readonly ScriptFile[] = []): Page {
    const files = [...new Map(scriptFiles.map((file) => [file.url, file])).values()];
    const { branding, messages } = this.settings;
    const logo = branding.logoUrl === undefined ? undefined : html`<img src="${branding.logoUrl}" alt="${branding.logoAlt ?? branding.title}">`;
    const markup = html`<!DOCTYPE html>
<html lang="${messages.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${heading} – ${branding.title}</title>
<style>${Html.trusted(this.style)}</style>
</head>
<body>
<header>${logo}<span class="brand">${branding.title}</span></header>
<main>
<h1>${heading}</h1>
${content}${files.map((file) => html`
<script src="${file.url}" integrity="${file.integrity}"></script>`)}${scripts.map((script) => html`
<script>${Html.trusted(script)}</script>`)}
</main>
</body>
</html>
`;
    const sources = [...files.map((file) => file.url), ...new Set(scripts.map((script) => `'sha256-${sha256(script)}'`))];
    const scriptSources = sources.length === 0 ? "'none'" : sources.join(' ');
    // No form-action: the form's redirect goes to whichever registered service asked, and browsers check it against form-action.
    const contentSecurityPolicy = `default-src 'none'; style-src 'sha256-${this.styleHash}'; script-src ${scriptSources}; img-src 'self' https: data:${imageOrigins.map((origin) => ` ${origin}`).join('')}; base-uri 'none'; frame-ancestors 'none'`;
    return { markup: markup.toString(), contentSecurityPolicy };
  }
}

export type ResponseMethod = 'GET' | 'POST';

/** What the login form shows of the relying party a login goes on to (its registered service, as the request found it). */
export interface ShownRelyingParty {
  readonly name: string;
  /** The address a person knows it by: the service URL, or an OIDC client's redirect URI. */
  readonly shownUrl: string;
  readonly logo?: string;
  readonly informationUrl?: string;
  readonly privacyUrl?: string;
}

export interface LoginForm {
  readonly formToken: string;
  readonly service?: string;
  /** The relying party `service` stands for, when it is registered and usable now. */
  readonly relyingParty?: ShownRelyingParty;
  readonly renew: boolean;
  readonly method: ResponseMethod;
  /** Filled in again after a failed attempt. */
  readonly username?: string;
  readonly warn?: boolean;
  /** Who is logged in already, when the form is shown anyway (renew, a service without single sign-on). */
  readonly principal?: string;
  /** Why the form is shown again. */
  readonly message?: string;
  /** Its parts, in order: the password's first, then other modules'. */
  readonly parts: readonly ShownPart[];
}

/** A prompt's page as the routes fill it in. */
export interface LoginStepForm {
  readonly page: PromptPage;
  readonly formToken: string;
  /** The held login's id. */
  readonly pending: string;
  readonly username: string;
  /** Why the step is shown again. */
  readonly message?: string;
}


/** An absolute https URL: the only images the page's policy lets it show besides its own. */
function isSecureUrl(url: string): boolean {
  return URL.canParse(url) && new URL(url).protocol === 'https:';
}

/** An absolute http(s) URL: a link that navigates, never one that runs (`javascript:`). */
function isWebUrl(url: string): boolean {
  return URL.canParse(url) && ['https:', 'http:'].includes(new URL(url).protocol);
}

function sha256(text: string): string {
  return hash('sha256', text, 'base64');
}
