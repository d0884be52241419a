import type { CredentialsPrompt, SessionPrompt, TicketPrompt } from '@tessera/core';
import type { SecondFactorChoices } from '@tessera/core/modules/login';
import type { LoginPageView, LoginPromptPart, PromptView } from '../../http-module.js';
import { html } from '../../pages/html.js';
import { optionalText } from '../../request/parameter-schemas.js';
import type { Messages } from './messages.js';

/** What the choice among second factors posts: the provider id of the one chosen. */
export const FACTOR_PARAMETER = 'factor';

/**
 * The view of the login's own choice among the second factors a service accepts that the user has:
 * one radio button per factor, by what the user gives ("A one-time code"), the first checked.
 */
export function factorChoiceView(messages: Messages): PromptView<SecondFactorChoices, unknown> {
  return {
    parameters: { [FACTOR_PARAMETER]: optionalText('The second factor chosen, by its provider id (`mfa-gauth`), when a service accepts several that the user has.') },
    page: (_language, _context, prepared) => ({
      heading: messages.factorChoiceHeading,
      content: html`<p>${messages.factorChoice}</p>
<fieldset><legend>${messages.factorChoiceLegend}</legend>
${(prepared?.choices ?? []).map(
  (choice, index) =>
    html`<div class="check"><input type="radio" id="factor-${choice.id}" name="${FACTOR_PARAMETER}" value="${choice.id}" required${index === 0 ? html` checked` : undefined}><label for="factor-${choice.id}">${sentenceCase(choice.description)}</label></div>`,
)}
</fieldset>`,
      submit: messages.factorChoiceSubmit,
      refused: messages.loginFailed,
    }),
    read: (parameters) => parameters[FACTOR_PARAMETER],
  };
}

/** Each prompt's view, by its prompt's name: the modules' and the login module's own. */
export class PromptViews {
  private readonly pageViews = new Map<string, LoginPageView>();
  private readonly promptViews = new Map<string, PromptView>();

  /** `own`: the login module's views of its own prompts (the password, the factor choice), by their names. */
  constructor(parts: readonly LoginPromptPart[], own: { readonly pages: Readonly<Record<string, LoginPageView>>; readonly prompts: Readonly<Record<string, PromptView>> }) {
    for (const [name, view] of Object.entries(own.pages)) this.pageViews.set(name, view);
    for (const [name, view] of Object.entries(own.prompts)) this.promptViews.set(name, view);
    for (const part of parts) {
      if (part.prompt.phase === 'credentials') this.pageViews.set(part.prompt.name, part.view as LoginPageView);
      else this.promptViews.set(part.prompt.name, part.view as PromptView);
    }
  }

  /** The view of a part of the login page. */
  page(prompt: CredentialsPrompt): LoginPageView {
    const view = this.pageViews.get(prompt.name);
    if (view === undefined) throw new Error(`the login prompt ${prompt.name} has no view`);
    return view;
  }

  /** The view of a prompt with a page of its own. */
  prompt(prompt: SessionPrompt | TicketPrompt): PromptView {
    const view = this.promptViews.get(prompt.name);
    if (view === undefined) throw new Error(`the login prompt ${prompt.name} has no view`);
    return view;
  }
}

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
