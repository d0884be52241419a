import { hash } from 'node:crypto';
import { stylesheet, type Branding } from '../../pages/branding.js';
import { html, Html } from '../../pages/html.js';

/** A whole HTML page and its Content-Security-Policy: no script, the stylesheet by its hash. */
export interface OidcPage {
  readonly markup: string;
  readonly contentSecurityPolicy: string;
}

/** The provider's own pages (consent, logout, errors), in the login pages' style and branding. */
export class OidcPages {
  private readonly style: string;

  constructor(private readonly branding: Branding) {
    this.style = stylesheet(branding.colours);
  }

  /** Asks the user to let `client` have the scopes; the form posts back to the interaction. */
  consent(client: string, principal: string, scopes: readonly string[], action: string): OidcPage {
    const items = scopes.map((scope) => html`<li>${scope}</li>`);
    return this.page(
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
    return this.page(
      'Log out',
      html`<p>Do you want to log out of every application you are logged in to?</p>
${Html.trusted(form)}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Log out</button>
<button type="submit" form="op.logoutForm">Stay logged in</button>`,
    );
  }

  loggedOut(): OidcPage {
    return this.page('Logged out', html`<p>You are logged out.</p>`);
  }

  error(code: string, description: string | undefined): OidcPage {
    return this.page('The application sent a request that cannot be served', html`<p><strong>${code}</strong>${description === undefined ? undefined : html`: ${description}`}</p>`);
  }

  private page(heading: string, content: Html): OidcPage {
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
    const contentSecurityPolicy = `default-src 'none'; style-src 'sha256-${hash('sha256', this.style, 'base64')}'; script-src 'none'; img-src 'self' https: data:; base-uri 'none'; frame-ancestors 'none'`;
    return { markup: markup.toString(), contentSecurityPolicy };
  }
}
