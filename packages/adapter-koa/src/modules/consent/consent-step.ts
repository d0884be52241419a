import { InvalidRequestError } from '@tessera/core';
import { REMINDER_OPTIONS, type AttributeConsent, type ReminderOption, type ReminderTimeUnit } from '@tessera/core/modules/consent';
import { z } from 'zod';
import type { TicketStep } from '../../http-module.js';
import { formatMessage, html } from '../../pages/html.js';
import { serviceHost } from '../../pages/service-host.js';
import { consentMessages } from './messages.js';

/** The parameters the consent page posts. */
export const CONSENT_PARAMETERS = { decision: 'decision', option: 'option' } as const;

/** The option checked when the page is shown, as CAS's page checks it. */
const DEFAULT_OPTION: ReminderOption = 'ATTRIBUTE_NAME';

/**
 * The consent module's ticket step: before a browser's service ticket, the attributes the service will
 * receive (names and values), the options of when to ask again, Allow and Deny. Allow keeps the
 * decision and lets the ticket be issued; Deny issues none, and the user stays here, logged in.
 */
export function consentStep(consent: AttributeConsent, reminder: { readonly amount: number; readonly unit: ReminderTimeUnit }): TicketStep {
  return {
    name: 'consent',
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
    needed: (ticket) => consent.required(ticket),
    async page(language, ticket) {
      const text = consentMessages(language);
      const attributes = Object.entries(await consent.consentable(ticket)).sort(([a], [b]) => a.localeCompare(b));
      const content = html`<p>${formatMessage(text.intro, { service: serviceHost(ticket.url) })}</p>
<dl>${attributes.map(([name, values]) => html`<dt>${name}</dt>${values.map((value) => html`<dd>${value}</dd>`)}`)}</dl>
<fieldset><legend>${text.askAgain}</legend>
${REMINDER_OPTIONS_SHOWN.map(
  (option) =>
    html`<div class="check"><input type="radio" id="consent-${option}" name="${CONSENT_PARAMETERS.option}" value="${option}"${option === DEFAULT_OPTION ? html` checked` : undefined}><label for="consent-${option}">${text.options[option]}</label></div>`,
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
    async complete(ticket, parameters, origin) {
      const decision = parameters[CONSENT_PARAMETERS.decision];
      if (decision === 'deny') {
        consent.deny(ticket, origin);
        return {
          proceed: false,
          page: (language) => {
            const text = consentMessages(language);
            return { heading: text.deniedHeading, content: html`<p>${formatMessage(text.denied, { service: serviceHost(ticket.url) })}</p>` };
          },
        };
      }
      if (decision !== 'allow') throw new InvalidRequestError("Parameter 'decision' must be allow or deny");
      const option = parameters[CONSENT_PARAMETERS.option];
      await consent.give(ticket, typeof option === 'string' ? (option as ReminderOption) : DEFAULT_OPTION, origin);
      return { proceed: true };
    },
  };
}

/** The options in the order the page lists them: the default first. */
const REMINDER_OPTIONS_SHOWN: readonly ReminderOption[] = ['ATTRIBUTE_NAME', 'ATTRIBUTE_VALUE', 'ALWAYS'];
