import type { LeftForm, UpstreamFailureReason } from '@tessera/core/modules/delegation';
import type { Branding } from '../../pages/branding.js';
import { html, type Html } from '../../pages/html.js';
import { ModulePages } from '../../pages/module-page.js';
import type { SentPage } from '../../pages/send-page.js';
import { delegationMessages } from './messages.js';
import { DELEGATED_LOGIN } from './parameters.js';

/** A whole HTML page and its Content-Security-Policy: the stylesheet and any script by their hashes. */
export type DelegationPage = SentPage;

/** Posts the form back to the login at once; without scripts the user presses its button. */
const SUBMIT_SCRIPT = "document.forms[0]?.submit();";

/** The module's own pages (the way back to the login form, a failure), in the login pages' style and language. */
export class DelegationPages {
  private readonly pages: ModulePages;

  constructor(
    branding: Branding,
    private readonly language: string,
    private readonly loginPath: string,
  ) {
    this.pages = new ModulePages(branding);
  }

  /**
   * Back from upstream: the login form the user left, posted again with the proof's id, so the login
   * module makes the session as for any login (its token, service and options as they were).
   */
  continueLogin(form: LeftForm, proofId: string): DelegationPage {
    const text = delegationMessages(this.language);
    return this.page(
      text.continueHeading,
      html`<form method="post" action="${this.loginPath}">
<input type="hidden" name="formToken" value="${form.formToken}">
${form.service === undefined ? undefined : html`<input type="hidden" name="service" value="${form.service}">`}
${form.renew ? html`<input type="hidden" name="renew" value="true">` : undefined}
${form.method === 'POST' ? html`<input type="hidden" name="method" value="POST">` : undefined}
<input type="hidden" name="${DELEGATED_LOGIN}" value="${proofId}">
<p>${text.continueIntro}</p>
<button type="submit">${text.continueButton}</button>
</form>`,
      SUBMIT_SCRIPT,
    );
  }

  /**
   * An upstream's answer posted across sites (SAML's HTTP-POST binding) posted again from this
   * server's own page, so the browser sends its delegation cookie (SameSite=Lax cookies come with a
   * same-site post only) and the login is checked against the browser that left, as any other.
   */
  postAgain(action: string, fields: Readonly<Record<string, string>>): DelegationPage {
    const text = delegationMessages(this.language);
    const inputs = Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
    return this.page(
      text.continueHeading,
      html`<form method="post" action="${action}">
${inputs}
<p>${text.continueIntro}</p>
<button type="submit">${text.continueButton}</button>
</form>`,
      SUBMIT_SCRIPT,
    );
  }

  /** A login through an upstream that failed: what happened, and the way back to the login page. */
  failed(reason: UpstreamFailureReason, service: string | undefined): DelegationPage {
    const text = delegationMessages(this.language);
    const back = `${this.loginPath}${service === undefined ? '' : `?service=${encodeURIComponent(service)}`}`;
    return this.page(
      text.failedHeading,
      html`<p class="message" role="alert">${text.failed[reason]}</p>
<p><a href="${back}">${text.backToLogin}</a></p>`,
    );
  }

  /**
   * Back from an upstream's logout that did not confirm it (a LogoutResponse that does not verify):
   * tessera's session has ended, the upstream's may not have; the link on to the service the logout
   * was to follow, through /logout (`servicePath`), when it kept one.
   */
  logoutUnconfirmed(servicePath: string | undefined): DelegationPage {
    const text = delegationMessages(this.language);
    return this.page(
      text.loggedOutHeading,
      html`<p class="message" role="alert">${text.logoutUnconfirmed}</p>
${servicePath === undefined ? undefined : html`<p><a href="${servicePath}">${text.continueToService}</a></p>`}`,
    );
  }

  // No form-action: the way back posts to this server's login, which browsers check against form-action only when it is set.
  private page(heading: string, content: Html, script?: string): DelegationPage {
    return this.pages.page(heading, content, { language: this.language, ...(script !== undefined && { script }) });
  }
}
