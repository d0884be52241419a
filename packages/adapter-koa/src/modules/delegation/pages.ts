import { hash } from 'node:crypto';
import type { LeftForm, UpstreamFailureReason } from '@tessera/core/modules/delegation';
import { stylesheet, type Branding } from '../../pages/branding.js';
import { html, Html } from '../../pages/html.js';
import { delegationMessages } from './messages.js';
import { DELEGATED_LOGIN } from './parameters.js';

/** A whole HTML page and its Content-Security-Policy: the stylesheet and any script by their hashes. */
export interface DelegationPage {
  readonly markup: string;
  readonly contentSecurityPolicy: string;
}

/** Posts the form back to the login at once; without scripts the user presses its button. */
const SUBMIT_SCRIPT = "document.forms[0]?.submit();";

/** The module's own pages (the way back to the login form, a failure), in the login pages' style and language. */
export class DelegationPages {
  private readonly style: string;

  constructor(
    private readonly branding: Branding,
    private readonly language: string,
    private readonly loginPath: string,
  ) {
    this.style = stylesheet(branding.colours);
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

  private page(heading: string, content: Html, script?: string): DelegationPage {
    const markup = html`<!DOCTYPE html>
<html lang="${this.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${heading} – ${this.branding.title}</title>
<style>${Html.trusted(this.style)}</style>
</head>
<body>
<header><span class="brand">${this.branding.title}</span></header>
<main>
<h1>${heading}</h1>
${content}${script === undefined ? undefined : html`
<script>${Html.trusted(script)}</script>`}
</main>
</body>
</html>
`;
    const scripts = script === undefined ? "'none'" : `'sha256-${hash('sha256', script, 'base64')}'`;
    // No form-action: the way back posts to this server's login, which browsers check against form-action only when it is set.
    const contentSecurityPolicy = `default-src 'none'; style-src 'sha256-${hash('sha256', this.style, 'base64')}'; script-src ${scripts}; img-src 'self' https: data:; base-uri 'none'; frame-ancestors 'none'`;
    return { markup: markup.toString(), contentSecurityPolicy };
  }
}
