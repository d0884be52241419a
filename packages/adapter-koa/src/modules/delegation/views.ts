import type { DelegationButtons, DelegationButtonsPrompt } from '@tessera/core/modules/delegation';
import { loginPromptPart, type LoginPromptPart } from '../../http-module.js';
import { html } from '../../pages/html.js';
import { delegationMessages } from './messages.js';
import { DELEGATION_PARAMETERS } from './parameters.js';

/** Clicks the one exclusive provider's button: the login form goes upstream at once, with its token, service and options. */
export const REDIRECT_SCRIPT = "document.getElementById('delegation-redirect')?.click();";

/**
 * The login page's upstream buttons (core's DelegationButtonsPrompt): each submits the login form to
 * the module's start route (`formaction`, no field required), which takes the form's token, service and
 * options with the provider chosen. The one provider a service allows exclusively is clicked by a
 * script at once; without scripts it is the button to press.
 */
export function delegationButtonsPart(prompt: DelegationButtonsPrompt, startUrl: string): LoginPromptPart {
  return loginPromptPart<DelegationButtons>(prompt, {
    markup: (language, prepared) => {
      if (prepared === undefined || prepared.providers.length === 0) return html``;
      const text = delegationMessages(language);
      const buttons = prepared.providers.map(
        (provider) =>
          html`<button type="submit" class="secondary" formaction="${startUrl}" formmethod="post" formnovalidate name="${DELEGATION_PARAMETERS.provider}" value="${provider.id}"${prepared.redirect ? html` id="delegation-redirect"` : undefined}>${provider.logoUrl === undefined ? undefined : html`<img src="${provider.logoUrl}" alt="" width="20" height="20"> `}${text.logInWith} ${provider.title}</button>`,
      );
      return html`<div class="delegation">${prepared.redirect ? html`<p class="hint" role="status">${text.redirecting}</p>` : html`<p class="hint">${text.intro}</p>`}
<div class="buttons">${buttons}</div></div>`;
    },
    script: (prepared) => (prepared?.redirect === true ? REDIRECT_SCRIPT : undefined),
  });
}
