import { InvalidRequestError } from '../../domain/errors.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { TicketPrompt, TicketPromptAnswer, TicketPromptContext } from '../../ports/login-prompt.js';
import type { AttributeConsent } from './attribute-consent.js';
import { REMINDER_OPTIONS, type ReminderOption } from './consent-decisions.js';

/** What the consent page shows: the attributes the service will receive, by name. */
export type ConsentPage = { readonly attributes: { readonly [name: string]: readonly string[] } };

/** The user's answer on the consent page: Allow (with when to ask again) or Deny. */
export interface ConsentAnswer {
  readonly decision: unknown;
  readonly option: unknown;
}

/** The option of a consent given without one, as CAS's page checks it. */
export const DEFAULT_REMINDER_OPTION: ReminderOption = 'ATTRIBUTE_NAME';

/**
 * The consent module's prompt before a browser's service ticket: the attributes the service will
 * receive, asked when the service's consent policy asks and no decision counts. Allow keeps the
 * decision and lets the ticket be issued; Deny issues none (it stops, the user stays logged in).
 */
export class ConsentPrompt implements TicketPrompt<ConsentPage, ConsentAnswer> {
  readonly phase = 'ticket';
  readonly name = 'consent';

  constructor(private readonly consent: AttributeConsent) {}

  needed(ticket: TicketPromptContext): Promise<boolean> {
    return this.consent.required(ticket);
  }

  async prepare(ticket: TicketPromptContext): Promise<ConsentPage> {
    return { attributes: await this.consent.consentable(ticket) };
  }

  async complete(ticket: TicketPromptContext, answer: ConsentAnswer, origin: RequestOrigin): Promise<TicketPromptAnswer> {
    if (answer.decision === 'deny') {
      await this.consent.deny(ticket, origin);
      return { proceed: false, stop: 'denied' };
    }
    if (answer.decision !== 'allow') throw new InvalidRequestError("Parameter 'decision' must be allow or deny");
    const option = REMINDER_OPTIONS.find((known) => known === answer.option) ?? DEFAULT_REMINDER_OPTION;
    await this.consent.give(ticket, option, origin);
    return { proceed: true };
  }
}
