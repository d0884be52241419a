import type { Authentication } from '../domain/authentication/authentication.js';
import type { RequestOrigin } from '../domain/events.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import type { JsonValue } from './record-store.js';

/**
 * The browser login is an ordered list of prompts, run by the login module (its LoginFlow,
 * docs/architecture.md §8) in three phases:
 *
 * - `credentials`: the parts of the login page (the password, another module's field, a passkey
 *   button), shown together; what they post is read by the credential extractors and proven by the
 *   Authenticator, as over REST;
 * - `session`: pages after the credentials are proven and before the session is made (a second
 *   factor, a choice among several), also asked of a session that must add a factor (step-up);
 * - `ticket`: pages before a service ticket is issued, once the session is made, after a new login
 *   and on single sign-on alike (a consent to attribute release).
 *
 * Within a phase, prompts are asked in module order, each when it is `needed`, decided again after
 * every prompt answered. A prompt may `prepare` what its page needs, asynchronously, each time the
 * page is shown (a WebAuthn challenge): the login keeps what it returns with the held login, on the
 * server, and hands it back to `complete`; a prompt may also keep what it needs in a store of its
 * own. The prompt is core's part; how its page looks and what it posts is its view's, in the HTTP
 * adapter (adapter-koa's LoginPromptPart), so a prompt never sees a request.
 */
export type LoginPrompt = CredentialsPrompt | SessionPrompt | TicketPrompt;

/** Where a login goes on to, as the login page knows it. */
export interface LoginPageContext {
  /** The service URL the login names, if any. */
  readonly url?: string;
  /** Its registered service, when one is usable now. */
  readonly service?: RegisteredService;
}

/** A part of the login page. */
export interface CredentialsPrompt<Prepared extends JsonValue = JsonValue> {
  readonly phase: 'credentials';
  /** Unique among the prompts: picks its view. */
  readonly name: string;
  /** Whether the page shows it; always when absent. */
  needed?(context: LoginPageContext): Promise<boolean>;
  /**
   * Whether, shown, it is the only way in the service takes (the delegation module's exclusive upstream
   * providers): the page then shows no password form. Never when absent.
   */
  replacesPassword?(context: LoginPageContext): Promise<boolean>;
  /**
   * What its part of the page needs, made each time the page is shown. Nothing is held for the login
   * page: a value its credential must come back with (a challenge) goes in the prompt's own store,
   * under an id the page posts back with the credential.
   */
  prepare?(context: LoginPageContext, origin: RequestOrigin): Promise<Prepared>;
}

/** A login whose credentials are proven, or a session asking for a ticket, as a prompt is asked about it. */
export interface PromptContext {
  readonly authentication: Authentication;
  /** The service URL the login is for, if it names one. */
  readonly url?: string;
  /** Its registered service, when one is usable now. */
  readonly service?: RegisteredService;
  /** What the prompts answered before this one kept (`keep`), by their names. */
  readonly kept: Readonly<Record<string, JsonValue>>;
}

/** The session's request for a ticket a ticket prompt is asked about: the service, whose every access rule the session passed. */
export interface TicketPromptContext extends PromptContext {
  readonly url: string;
  readonly service: RegisteredService;
}

/**
 * A page after the credentials are proven and before the session is made: a second factor, or
 * anything else a login must pass. The login module holds the proven login meanwhile (bound to the
 * browser, as long as a login form is valid) and takes the page's post behind the form and
 * credential guards: the throttle counts a refusal against the login's user.
 */
export interface SessionPrompt<Prepared extends JsonValue = JsonValue, Input = unknown, Stop = unknown> {
  readonly phase: 'session';
  readonly name: string;
  /**
   * The id of the second-factor provider whose factor it proves (`mfa-gauth`): the login asks it when
   * a service's `multifactorPolicy` lacks a factor that the user has, the one the user chose when the
   * user has several (the login's own choice prompt), and `needed` is not asked.
   */
  readonly secondFactor?: string;
  /** Whether this login needs it; always when absent (unless it proves a second factor). */
  needed?(context: PromptContext): Promise<boolean>;
  /**
   * What its page needs, made each time the page is shown; kept with the held login and handed to
   * `complete`. `previous` is what this held login's page was shown with, when it is shown again after a
   * refusal: what must stay the same for this login alone (a secret offered to it) is kept from there.
   */
  prepare?(context: PromptContext, origin: RequestOrigin, previous?: Prepared): Promise<Prepared>;
  /**
   * What the user answered (as its view read the page's post): on, with the authentication the login
   * goes on with (a factor added; the same user) and what later prompts may read (`keep`); or stopped,
   * no session made, the view showing `stop`. AuthenticationFailedError refuses it: its page again
   * with its message, counted by the throttle.
   */
  complete(context: PromptContext, input: Input, origin: RequestOrigin, prepared: Prepared | undefined): Promise<SessionPromptAnswer<Stop>>;
}

export type SessionPromptAnswer<Stop = unknown> =
  | { readonly proceed: true; readonly authentication?: Authentication; readonly keep?: JsonValue }
  | { readonly proceed: false; readonly stop: Stop };

/**
 * A page before a service ticket is issued to the browser, once the session is made. The login module
 * holds the request meanwhile as it holds a login, and issues the ticket after the last ticket prompt
 * that let it go on. The REST API and the validation endpoints never pass through it.
 */
export interface TicketPrompt<Prepared extends JsonValue = JsonValue, Input = unknown, Stop = unknown> {
  readonly phase: 'ticket';
  readonly name: string;
  /** Whether this ticket needs it: asked on every browser grant, so it must be cheap for the services it does not concern. */
  needed(context: TicketPromptContext): Promise<boolean>;
  prepare?(context: TicketPromptContext, origin: RequestOrigin): Promise<Prepared>;
  /** What the user answered: on to the ticket, or stopped (no ticket; the session stays), the view showing `stop`. */
  complete(context: TicketPromptContext, input: Input, origin: RequestOrigin, prepared: Prepared | undefined): Promise<TicketPromptAnswer<Stop>>;
}

export type TicketPromptAnswer<Stop = unknown> = { readonly proceed: true; readonly keep?: JsonValue } | { readonly proceed: false; readonly stop: Stop };

/**
 * Whether a page of the browser login would hold a ticket back (some ticket prompt needs it): a
 * protocol that must answer without a page (OpenID Connect's `prompt=none`) asks it.
 */
export async function ticketPromptsNeeded(prompts: readonly LoginPrompt[], ticket: Omit<TicketPromptContext, 'kept'>): Promise<boolean> {
  for (const prompt of prompts) if (prompt.phase === 'ticket' && (await prompt.needed({ ...ticket, kept: {} }))) return true;
  return false;
}
