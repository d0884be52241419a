import type { Branding } from '../../pages/branding.js';
import { html, Html } from '../../pages/html.js';
import { ModulePages } from '../../pages/module-page.js';
import type { SentPage } from '../../pages/send-page.js';

/** A whole HTML page and its Content-Security-Policy: no script, the stylesheet by its hash. */
export type OidcPage = SentPage;

/** The provider's own pages (consent, logout, errors), in the login pages' style and branding. */
export class OidcPages {
  private readonly pages: ModulePages;

  constructor(branding: Branding) {
    this.pages = new ModulePages(branding);
  }

  /** Asks the user to let `client` have the scopes; the form posts back to the interaction. */
  consent(client: string, principal: string, scopes: readonly string[], action: string): OidcPage {
    const items = scopes.map((scope) => html`<li>${scope}</li>`);
    return this.pages.page(
      'Allow access',
      html`<p><strong>${client}</strong> asks to know who you are (<strong>${principal}</strong>) and for:</p>
<ul>${items}</ul>
<form method="post" action="${action}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
    );
  }

  /** RP-initiated logout: the provider's form (its anti-forgery field only) and the two answers. */
  logout(form: string): OidcPage {
    return this.pages.page(
      'Log out',
      html`<p>Do you want to log out of every application you are logged in to?</p>
${Html.trusted(form)}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Log out</button>
<button type="submit" form="op.logoutForm">Stay logged in</button>`,
    );
  }

  loggedOut(): OidcPage {
    return this.pages.page('Logged out', html`<p>You are logged out.</p>`);
  }

  error(code: string, description: string | undefined): OidcPage {
    return this.pages.page('The application sent a request that cannot be served', html`<p><strong>${code}</strong>${description === undefined ? undefined : html`: ${description}`}</p>`);
  }
}
