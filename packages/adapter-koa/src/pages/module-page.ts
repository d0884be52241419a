import { hash } from 'node:crypto';
import { stylesheet, type Branding } from './branding.js';
import { html, Html } from './html.js';
import type { SentPage } from './send-page.js';

export interface ModulePageOptions {
  /** The page's language (`lang`); English unless the module knows the user's. */
  readonly language?: string;
  /** One inline script, placed after the content and allowed by its hash alone; none runs otherwise. */
  readonly script?: string;
  /**
   * The page's `form-action` source list (`'none'`, an origin). Left out when undefined: a form posting
   * back to this server then goes anywhere the page's own links go, which browsers check only when it is set.
   */
  readonly formAction?: string;
}

/**
 * The shell of the pages modules show beside the login's (consent, logout, hand-over and error pages):
 * the operator's title and colours, a heading, the content, and a Content-Security-Policy that lets
 * nothing load or run but the stylesheet and the one script named, each by its hash.
 */
export class ModulePages {
  private readonly style: string;

  constructor(private readonly branding: Branding) {
    this.style = stylesheet(branding.colours);
  }

  page(heading: string, content: Html, options: ModulePageOptions = {}): SentPage {
    const { language = 'en', script, formAction } = options;
    const markup = html`<!DOCTYPE html>
<html lang="${language}">
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
    const scriptSource = script === undefined ? "'none'" : `'sha256-${hash('sha256', script, 'base64')}'`;
    const contentSecurityPolicy = [
      "default-src 'none'",
      `style-src 'sha256-${hash('sha256', this.style, 'base64')}'`,
      `script-src ${scriptSource}`,
      ...(formAction === undefined ? [] : [`form-action ${formAction}`]),
      "img-src 'self' https: data:",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    return { markup: markup.toString(), contentSecurityPolicy };
  }
}
