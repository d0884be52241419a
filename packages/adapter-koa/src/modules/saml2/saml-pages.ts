import type { Branding } from '../../pages/branding.js';
import { html } from '../../pages/html.js';
import { ModulePages } from '../../pages/module-page.js';
import type { SentPage } from '../../pages/send-page.js';

/** Submits the page's one form as it loads: the HTTP-POST binding (SAML Bindings §3.5.4). */
const SUBMIT_SCRIPT = 'document.forms[0].submit();';

/** The module's pages: the form that carries a message to an SP over HTTP-POST, and its errors, in the login pages' look. */
export class SamlPages {
  private readonly pages: ModulePages;

  constructor(branding: Branding) {
    this.pages = new ModulePages(branding);
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
</form>`;
    return this.pages.page('Going on to the application', content, { script: SUBMIT_SCRIPT, formAction: new URL(action).origin });
  }

  loggedOut(): SentPage {
    return this.pages.page('Logged out', html`<p>You are logged out.</p>`, { formAction: "'none'" });
  }

  /** An SP's LogoutResponse a browser brought: the SP ended its session. */
  logoutConfirmed(entityId: string): SentPage {
    return this.pages.page('Logged out', html`<p>The application ${entityId} has ended its session.</p>`, { formAction: "'none'" });
  }

  error(reason: string): SentPage {
    return this.pages.page('The application sent a request that cannot be served', html`<p>${reason}</p><p>Start again from the application.</p>`, { formAction: "'none'" });
  }
}
