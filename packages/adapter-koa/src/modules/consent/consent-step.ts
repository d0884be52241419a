import { DEFAULT_REMINDER_OPTION, REMINDER_OPTIONS, type ConsentPrompt, type ReminderOption, type ReminderTimeUnit } from '@tessera/core/modules/consent';
import { z } from 'zod';
import { loginPromptPart, type LoginPromptPart } from '../../http-module.js';
import { formatMessage, html } from '../../pages/html.js';
import { serviceHost } from '../../pages/service-host.js';
import { consentMessages } from './messages.js';

/** The parameters the consent page posts. */
export const CONSENT_PARAMETERS = { decision: 'decision', option: 'option' } as const;

/**
 * The view of the consent module's prompt (core's ConsentPrompt) before a browser's service ticket:
 * the attributes the service will receive (names and values), the options of when to ask again, Allow
 * and Deny; after Deny, a page saying nothing was shared.
 */
export function consentStep(prompt: ConsentPrompt, reminder: { readonly amount: number; readonly unit: ReminderTimeUnit }): LoginPromptPart {
  return loginPromptPart(prompt, {
    parameters: {
      [CONSENT_PARAMETERS.decision]: z
        .enum(['allow', 'deny'])
        .optional()
        .meta({ description: 'The consent page’s answer: `allow` (the ticket is issued and the decision kept) or `deny` (no ticket).' }),
      [CONSENT_PARAMETERS.option]: z
        .enum(REMINDER_OPTIONS)
        .optional()
        .meta({ description: 'With `allow`: when to ask again: `ATTRIBUTE_NAME` (the names released change; the default), `ATTRIBUTE_VALUE` (their names or values change) or `ALWAYS`.' }),
    },
    page(language, ticket, prepared) {
      const text = consentMessages(language);
      const attributes = Object.entries(prepared?.attributes ?? {}).sort(([a], [b]) => a.localeCompare(b));
      const content = html`<p>${formatMessage(text.intro, { service: serviceHost(ticket.url) })}</p>
<dl>${attributes.map(([name, values]) => html`<dt>${name}</dt>${values.map((value) => html`<dd>${value}</dd>`)}`)}</dl>
<fieldset><legend>${text.askAgain}</legend>
${REMINDER_OPTIONS_SHOWN.map(
  (option) =>
    html`<div class="check"><input type="radio" id="consent-${option}" name="${CONSENT_PARAMETERS.option}" value="${option}"${option === DEFAULT_REMINDER_OPTION ? html` checked` : undefined}><label for="consent-${option}">${text.options[option]}</label></div>`,
)}
</fieldset>
<p class="hint">${formatMessage(text.reminderNote, { reminder: text.reminder(reminder.amount, reminder.unit) })}</p>`;
      return {
        heading: text.heading,
        content,
        submit: text.allow,
        submitValue: { name: CONSENT_PARAMETERS.decision, value: 'allow' },
        alternative: { name: CONSENT_PARAMETERS.decision, value: 'deny', label: text.deny },
        refused: text.denied,
      };
    },
    read: (parameters) => ({ decision: parameters[CONSENT_PARAMETERS.decision], option: parameters[CONSENT_PARAMETERS.option] }),
    stopped(language, _stop, ticket) {
      const text = consentMessages(language);
      return { heading: text.deniedHeading, content: html`<p>${formatMessage(text.denied, { service: serviceHost(ticket.url) })}</p>` };
    },
  });
}

/** The options in the order the page lists them: the default first. */
const REMINDER_OPTIONS_SHOWN: readonly ReminderOption[] = ['ATTRIBUTE_NAME', 'ATTRIBUTE_VALUE', 'ALWAYS'];
