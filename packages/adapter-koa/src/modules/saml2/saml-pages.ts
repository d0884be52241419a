import { hash } from 'node:crypto';
import { stylesheet, type Branding } from '../../pages/branding.js';
import { html, Html } from '../../pages/html.js';
import type { SentPage } from '../../pages/send-page.js';

/** Submits the page's one form as it loads: the HTTP-POST binding (SAML Bindings §3.5.4). */
const SUBMIT_SCRIPT = 'document.forms[0].submit();';

/** The module's pages: the form that carries a message to an SP over HTTP-POST, and its errors, in the login pages' look. */
export class SamlPages {
  private readonly style: string;

  constructor(private readonly branding: Branding) {
    this.style = stylesheet(branding.colours);
  }

  /**
   * A form posting `fields` to `action`, sent as the page loads; without script, a button does it. Its
   * Content-Security-Policy lets the form go to that address alone.
   */
  post(action: string, fields: Readonly<Record<string, string | undefined>>): SentPage {
    const inputs = Object.entries(fields)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
    const content = html`<form method="post" action="${action}">
${inputs}
<noscript><p>Your browser does not run scripts: press the button to go on to the application.</p></noscript>
<button type="submit">Continue</button>
</form>
<script>${Html.trusted(SUBMIT_SCRIPT)}</script>`;
    return this.page('Going on to the application', content, `'sha256-${hash('sha256', SUBMIT_SCRIPT, 'base64')}'`, new URL(action).origin);
  }

  loggedOut(): SentPage {
    return this.page('Logged out', html`<p>You are logged out.</p>`);
  }

  error(reason: string): SentPage {
    return this.page('The application sent a request that cannot be served', html`<p>${reason}</p><p>Start again from the application.</p>`);
  }

  private page(heading: string, content: Html, script = "'none'", formAction = "'none'"): SentPage {
    const markup = html`<!DOCTYPE html>
<html lang="en">
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
${content}
</main>
</body>
</html>
`;
    const contentSecurityPolicy = `default-src 'none'; style-src 'sha256-${hash('sha256', this.style, 'base64')}'; script-src ${script}; form-action ${formAction}; img-src 'self' https: data:; base-uri 'none'; frame-ancestors 'none'`;
    return { markup: markup.toString(), contentSecurityPolicy };
  }
}
