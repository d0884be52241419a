import type { Authentication } from '../../domain/authentication/authentication.js';
import type { Credential } from '../../domain/authentication/credential.js';
import { AuthenticationFailedError, InvalidRequestError } from '../../domain/errors.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { TicketGrantingTicket } from '../../domain/tickets/ticket.js';
import type {
  CredentialsPrompt,
  LoginPageContext,
  LoginPrompt,
  PromptContext,
  SessionPrompt,
  SessionPromptAnswer,
  TicketPrompt,
  TicketPromptContext,
} from '../../ports/login-prompt.js';
import type { JsonValue } from '../../ports/record-store.js';
import type { HoldServiceTicket } from '../../use-cases/grant-service-ticket.js';
import type { RelyingParty } from '../../use-cases/relying-party-access.js';
import type { SecondFactorRequirement } from '../../use-cases/second-factor-requirement.js';
import type { SecondFactorProvider } from '../../ports/second-factor.js';
import type { BrowserLogin, LoginOutcome, LoginRequest } from './browser-login.js';
import type { HeldRequest, PendingLogin, PendingLogins } from './pending-logins.js';

/** The login page's own part: username and password, which the central authentication reads. */
export const PASSWORD_PROMPT: CredentialsPrompt = { phase: 'credentials', name: 'password' };

/** The name of the login's own prompt that lets the user choose among the second factors a service accepts. */
export const SECOND_FACTOR_CHOICE = 'second-factor';

/** What the choice prompt's page offers: the factors the user has, in the policy's order. */
export type SecondFactorChoices = { readonly choices: readonly { readonly id: string; readonly description: string }[] };

/** A visit to /login as the flow takes it: core's LoginRequest, and how the browser goes back to the service. */
export interface FlowRequest {
  readonly service?: string;
  /** The TGT the browser's session cookie names, if it sent one that opened. */
  readonly sessionTgtId?: string;
  readonly renew: boolean;
  readonly gateway: boolean;
  readonly warn: boolean;
  /** `GET` or `POST`, as the request asked: kept with a held login. */
  readonly method: string;
  readonly origin: RequestOrigin;
}

/** A part of the login page with what its prompt prepared. */
export interface PreparedPart {
  readonly prompt: CredentialsPrompt;
  readonly prepared: JsonValue | undefined;
}

/** A prompt's page for a held login: the prompt, the held login's id its page posts back, what it is asked about and what it prepared. */
export interface ShownPrompt {
  readonly prompt: SessionPrompt | TicketPrompt;
  readonly pending: string;
  readonly context: PromptContext;
  readonly prepared: JsonValue | undefined;
}

/** The held login a post names, this browser's and live, at its prompt. */
export interface HeldPrompt extends ShownPrompt {
  readonly held: PendingLogin;
  readonly browserId: string;
}

/** Where a login ends for the browser: back to the service, a confirmation, logged in, or refused. */
export type FinalOutcome = Extract<LoginOutcome, { readonly kind: 'redirect' | 'confirm' | 'signedIn' | 'denied' }>;

/** The login page, with its parts; `principal` who is logged in already, `relyingParty` where the login goes on to. */
export interface LoginPage {
  readonly principal?: string;
  readonly relyingParty?: RelyingParty;
  readonly parts: readonly PreparedPart[];
}

/**
 * Where a login stands after a request, for the browser to be shown: the login page, a prompt's page,
 * a prompt's own page in place of the rest (stopped), or the end. `request` is the request the login
 * answers (a held one's, after a prompt); `madeSession` the session this request made, whose cookie
 * the browser gets now.
 */
export type LoginProgress = { readonly request: HeldRequest; readonly madeSession?: TicketGrantingTicket } & (
  | ({ readonly kind: 'form' } & LoginPage)
  | { readonly kind: 'prompt'; readonly shown: ShownPrompt }
  | { readonly kind: 'stopped'; readonly prompt: SessionPrompt | TicketPrompt; readonly stop: unknown; readonly context: PromptContext }
  | { readonly kind: 'outcome'; readonly outcome: FinalOutcome }
);

/** A post for a held login that is gone (expired, finished, another browser's or user's): the login starts again. */
export interface GoneLogin {
  readonly kind: 'gone';
  readonly request?: HeldRequest;
}

/** The browser's id, set now when it has none: asked only when a login is held. */
export type BrowserId = () => string;

/**
 * The browser login as an ordered list of prompts (ports/login-prompt.ts): the login page and its
 * parts, the pages between the credentials and the session, the pages before a ticket. It holds a
 * login between its pages (PendingLogins: bound to the browser, taken atomically once answered, so
 * one proof makes one session) and decides the next prompt after every answer; BrowserLogin makes
 * the session and grants the ticket. The HTTP adapter renders what it returns and reads the posts.
 *
 * Its own prompts: the password (the login page's first part) and the choice among several second
 * factors a service accepts that the user has (the first page after the credentials, when needed).
 * A prompt proving a second factor (`secondFactor`) is asked when the service's policy lacks a factor:
 * the user's only one, or the one chosen.
 */
export class LoginFlow {
  private readonly credentials: readonly CredentialsPrompt[];
  private readonly session: readonly SessionPrompt[];
  private readonly tickets: readonly TicketPrompt[];
  /** The prompts proving second factors, by provider id. */
  private readonly factors: ReadonlyMap<string, SessionPrompt>;
  /** Asks the ticket prompts whether a browser's ticket waits for one; none without ticket prompts, so a grant asks nothing. */
  readonly holdTicket: HoldServiceTicket | undefined;

  constructor(
    private readonly login: BrowserLogin,
    private readonly pending: PendingLogins,
    private readonly secondFactor: SecondFactorRequirement,
    /** The modules' prompts, in module order. */
    prompts: readonly LoginPrompt[],
  ) {
    const all = [PASSWORD_PROMPT, this.choice, ...prompts];
    const names = all.map((prompt) => prompt.name);
    const repeated = names.find((name, index) => names.indexOf(name) !== index);
    if (repeated !== undefined) throw new Error(`two login prompts are named ${repeated}`);
    this.credentials = all.filter((prompt): prompt is CredentialsPrompt => prompt.phase === 'credentials');
    this.session = all.filter((prompt): prompt is SessionPrompt => prompt.phase === 'session');
    this.tickets = all.filter((prompt): prompt is TicketPrompt => prompt.phase === 'ticket');
    const factors = new Map<string, SessionPrompt>();
    for (const prompt of this.session) {
      if (prompt.secondFactor === undefined) continue;
      if (factors.has(prompt.secondFactor)) throw new Error(`two login prompts prove the second factor ${prompt.secondFactor}`);
      factors.set(prompt.secondFactor, prompt);
    }
    this.factors = factors;
    this.holdTicket = this.tickets.length === 0 ? undefined : async (ticket) => (await this.nextTicketPrompt({ ...ticket, kept: {} })) !== undefined;
  }

  /**
   * GET /login, or a confirmation of single sign-on after `warn`: single sign-on (with the pages its
   * service asks first: a factor to add, a ticket prompt), gateway, or the login page.
   */
  async begin(request: FlowRequest, browser: BrowserId): Promise<LoginProgress> {
    const { method: _method, ...login } = request;
    const outcome = await this.login.begin(this.withHold(login));
    return this.follow(outcome, heldRequestOf(request), browser, request.origin);
  }

  /**
   * POST /login: the credentials proven (AuthenticationFailedError, NoCredentialsError as REST), then
   * the prompts the login needs before its session, then the session.
   */
  async logIn(request: FlowRequest & { readonly credentials: readonly Credential[] }, browser: BrowserId): Promise<LoginProgress> {
    const { method: _method, ...login } = request;
    const { authentication, service } = await this.login.authenticate(login);
    const context: PromptContext = { authentication, ...(request.service !== undefined && { url: request.service }), ...(service && { service }), kept: {} };
    return this.towardsSession(heldRequestOf(request), context, undefined, browser, request.origin);
  }

  /** The login page for a service URL, each part prepared: shown again after a refused post. */
  async loginPage(url: string | undefined, origin: RequestOrigin): Promise<LoginPage> {
    const relyingParty = await this.login.relyingParty(url, origin);
    return { ...(relyingParty && { relyingParty }), parts: await this.parts({ ...(url !== undefined && { url }), ...(relyingParty && { service: relyingParty.service }) }, origin) };
  }

  /** The held login a post names, if it is live and this browser's, at its prompt. */
  async held(pendingId: string | undefined, browserId: string | undefined, origin: RequestOrigin): Promise<HeldPrompt | undefined> {
    const held = await this.pending.find(pendingId, browserId);
    if (held === undefined || pendingId === undefined || browserId === undefined) return undefined;
    const service = await this.login.service(held.service, origin);
    const kept = held.kept ?? {};
    const base = { authentication: held.authentication, kept, ...(held.service !== undefined && { url: held.service }), ...(service && { service }) };
    const name = held.steps[0];
    const prompt = held.beforeTicket !== undefined ? this.tickets.find((each) => each.name === name) : this.session.find((each) => each.name === name);
    if (prompt === undefined || (prompt.phase === 'ticket' && (service === undefined || held.service === undefined))) return undefined;
    return { prompt, pending: pendingId, context: base, prepared: held.prepared, held, browserId };
  }

  /** The held login at its prompt, its page prepared again (shown again after a refusal): a fresh challenge, not one already tried. */
  async again(pendingId: string | undefined, browserId: string | undefined, origin: RequestOrigin): Promise<HeldPrompt | undefined> {
    const found = await this.held(pendingId, browserId, origin);
    if (found === undefined) return undefined;
    const prepared = await this.prepare(found.prompt, found.context, origin, found.prepared);
    if (prepared === found.prepared || !(await this.pending.reprepared(found.pending, found.browserId, prepared))) return found;
    return { ...found, prepared };
  }

  /**
   * POST /login/step: the prompt's answer for a held login. A refusal throws (AuthenticationFailedError:
   * the page again); otherwise the held login is taken (gone for any other post of it) and the login
   * goes on to its next prompt, its session or its ticket.
   */
  async answer(found: HeldPrompt, input: unknown, origin: RequestOrigin, browser: BrowserId): Promise<LoginProgress | GoneLogin> {
    const { held, prompt, context, pending, browserId } = found;
    const request = heldRequestOf(held);
    if (prompt.phase === 'ticket') {
      const ticket = context as TicketPromptContext;
      const answer = await prompt.complete(ticket, input, origin, held.prepared);
      // One answer per held ticket: whoever takes it first goes on.
      const finished = await this.pending.finish(pending, browserId);
      if (finished === undefined || held.session === undefined || held.beforeTicket === undefined) return { kind: 'gone', request };
      if (!answer.proceed) return { kind: 'stopped', prompt, stop: answer.stop, context, request };
      const kept = keeping(context.kept, prompt.name, answer.keep);
      return this.beforeTicket({ session: held.session, fromNewLogin: held.beforeTicket.fromNewLogin, request }, { ...ticket, kept }, prompt.name, browser, origin);
    }
    const answer: SessionPromptAnswer = await prompt.complete(context, input, origin, held.prepared);
    const authentication = (answer.proceed ? answer.authentication : undefined) ?? context.authentication;
    if (authentication.principal.id !== context.authentication.principal.id) throw new AuthenticationFailedError(['A step proved another user than the login.']);
    // One proof makes one session: whoever takes the held login first goes on.
    const finished = await this.pending.finish(pending, browserId);
    if (finished === undefined) return { kind: 'gone', request };
    if (!answer.proceed) return { kind: 'stopped', prompt, stop: answer.stop, context, request };
    return this.towardsSession(request, { ...context, authentication, kept: keeping(context.kept, prompt.name, answer.keep) }, prompt.name, browser, origin);
  }

  /** The second factors this login may prove in the browser: those the service accepts that the user has, with a prompt of their own. */
  private async factorChoices(context: PromptContext): Promise<SecondFactorProvider[]> {
    return (await this.secondFactor.choices(context.service, context.authentication)).filter((provider) => this.factors.has(provider.id));
  }

  /** The login's own prompt: the choice among the second factors the user has, when there are several. */
  private readonly choice: SessionPrompt<SecondFactorChoices, unknown> = {
    phase: 'session',
    name: SECOND_FACTOR_CHOICE,
    prepare: async (context) => ({ choices: (await this.factorChoices(context)).map(({ id, description }) => ({ id, description })) }),
    complete: async (context, input) => {
      const offered = await this.factorChoices(context);
      if (typeof input !== 'string' || !offered.some((provider) => provider.id === input)) throw new InvalidRequestError('Choose one of the second factors offered');
      return { proceed: true, keep: input };
    },
  };

  /** A proven login goes on: to the next session prompt it needs after `after` (held, its page prepared), or to its session. */
  private async towardsSession(request: HeldRequest, context: PromptContext, after: string | undefined, browser: BrowserId, origin: RequestOrigin): Promise<LoginProgress> {
    const next = await this.nextSessionPrompt(context, after);
    if (next !== undefined) return this.hold(next, context, { ...request, authentication: context.authentication }, browser, origin);
    const session: LoginRequest = {
      ...(request.service !== undefined && { service: request.service }),
      ...(request.session !== undefined && { sessionTgtId: request.session }),
      renew: request.renew,
      gateway: false,
      warn: false,
      ...(request.stepUp === true && { stepUp: true }),
      origin,
    };
    const { tgt, outcome } = await this.login.startSession(this.withHold(session), context.authentication, context.service);
    return this.follow(outcome, request, browser, origin, tgt);
  }

  /**
   * A ticket the session may have, held back for ticket prompts: on to the next one it needs after
   * `after` (held, its page prepared), or the ticket granted now.
   */
  private async beforeTicket(
    ticket: { readonly session: string; readonly fromNewLogin: boolean; readonly request: HeldRequest },
    context: TicketPromptContext,
    after: string | undefined,
    browser: BrowserId,
    origin: RequestOrigin,
    madeSession?: TicketGrantingTicket,
  ): Promise<LoginProgress> {
    const request: HeldRequest = { service: context.url, session: ticket.session, renew: false, warn: false, method: ticket.request.method, beforeTicket: { fromNewLogin: ticket.fromNewLogin } };
    const next = await this.nextTicketPrompt(context, after);
    if (next !== undefined) return this.hold(next, context, { ...request, authentication: context.authentication }, browser, origin, madeSession);
    const outcome = await this.login.grantAfterSteps({ sessionTgtId: ticket.session, service: context.url, fromNewLogin: ticket.fromNewLogin, origin });
    const { beforeTicket: _held, ...granted } = request;
    return this.follow(outcome, granted, browser, origin, madeSession);
  }

  /** What a core outcome shows: the login page, a held login's prompt (step-up, ticket prompts), or the end. */
  private async follow(outcome: LoginOutcome, request: HeldRequest, browser: BrowserId, origin: RequestOrigin, madeSession?: TicketGrantingTicket): Promise<LoginProgress> {
    const made = madeSession === undefined ? {} : { madeSession };
    switch (outcome.kind) {
      case 'credentials': {
        // The relying party as the outcome found it, else looked up (a session gone before its ticket).
        const { relyingParty } = outcome;
        const page = relyingParty === undefined ? await this.loginPage(request.service, origin) : { relyingParty, parts: await this.parts({ url: relyingParty.url, service: relyingParty.service }, origin) };
        return { kind: 'form', ...page, ...(outcome.principal !== undefined && { principal: outcome.principal }), request, ...made };
      }
      case 'stepUp': {
        // The session's own login goes through the prompts the service needs, then on as single sign-on.
        const stepUp: HeldRequest = { service: outcome.url, session: outcome.session, renew: false, warn: false, stepUp: true, method: request.method };
        return this.towardsSession(stepUp, { authentication: outcome.authentication, service: outcome.service, url: outcome.url, kept: {} }, undefined, browser, origin);
      }
      case 'beforeTicket':
        return this.beforeTicket(
          { session: outcome.session, fromNewLogin: outcome.fromNewLogin, request },
          { authentication: outcome.authentication, service: outcome.service, url: outcome.url, kept: {} },
          undefined,
          browser,
          origin,
          madeSession,
        );
      default:
        return { kind: 'outcome', outcome, request, ...made };
    }
  }

  /** Holds the login at `prompt`, its page prepared: the prompt's page is shown next. */
  private async hold(
    prompt: SessionPrompt | TicketPrompt,
    context: PromptContext,
    login: HeldRequest & { readonly authentication: Authentication },
    browser: BrowserId,
    origin: RequestOrigin,
    madeSession?: TicketGrantingTicket,
  ): Promise<LoginProgress> {
    const prepared = await this.prepare(prompt, context, origin);
    const { authentication, ...request } = login;
    const held: PendingLogin = { ...withoutUndefined(request), authentication, steps: [prompt.name], ...(prepared !== undefined && { prepared }), ...(Object.keys(context.kept).length > 0 && { kept: context.kept }) };
    const pending = await this.pending.hold(browser(), held);
    const shownRequest: HeldRequest = withoutUndefined(request);
    return { kind: 'prompt', shown: { prompt, pending, context, prepared }, request: shownRequest, ...(madeSession !== undefined && { madeSession }) };
  }

  private async prepare(prompt: SessionPrompt | TicketPrompt, context: PromptContext, origin: RequestOrigin, previous?: JsonValue): Promise<JsonValue | undefined> {
    if (prompt.phase === 'ticket') return prompt.prepare?.(context as TicketPromptContext, origin);
    return prompt.prepare?.(context, origin, previous);
  }

  /** The login page's parts it shows, in order, each prepared. */
  private async parts(context: LoginPageContext, origin: RequestOrigin): Promise<PreparedPart[]> {
    const parts: PreparedPart[] = [];
    let passwordReplaced = false;
    for (const prompt of this.credentials) {
      if (prompt.needed !== undefined && !(await prompt.needed(context))) continue;
      if ((await prompt.replacesPassword?.(context)) === true) passwordReplaced = true;
      parts.push({ prompt, prepared: await prompt.prepare?.(context, origin) });
    }
    return passwordReplaced ? parts.filter((part) => part.prompt !== PASSWORD_PROMPT) : parts;
  }

  /** The first session prompt after `after` (from the first without it) that this login needs. */
  private async nextSessionPrompt(context: PromptContext, after: string | undefined): Promise<SessionPrompt | undefined> {
    for (const prompt of following(this.session, after)) if (await this.sessionPromptNeeded(prompt, context)) return prompt;
    return undefined;
  }

  private async nextTicketPrompt(context: TicketPromptContext, after?: string): Promise<TicketPrompt | undefined> {
    for (const prompt of following(this.tickets, after)) if (await prompt.needed(context)) return prompt;
    return undefined;
  }

  /**
   * The choice when the user has several of the factors the service lacks; a factor's prompt when it is
   * the user's only one or the one chosen; any other as it says.
   */
  private async sessionPromptNeeded(prompt: SessionPrompt, context: PromptContext): Promise<boolean> {
    const chosen = context.kept[SECOND_FACTOR_CHOICE];
    if (prompt === this.choice) return chosen === undefined && (await this.factorChoices(context)).length > 1;
    if (prompt.secondFactor === undefined) return prompt.needed?.(context) ?? true;
    const choices = await this.factorChoices(context);
    if (typeof chosen === 'string') return chosen === prompt.secondFactor && choices.some((provider) => provider.id === chosen);
    return choices.length === 1 && choices[0]?.id === prompt.secondFactor;
  }

  /** The request with the ticket prompts' hold: what every browser grant goes through. */
  private withHold(request: LoginRequest): LoginRequest {
    return this.holdTicket === undefined ? request : { ...request, holdTicket: this.holdTicket };
  }
}

/** The prompts after the one named `after` (all without it). */
function following<Prompt extends { readonly name: string }>(prompts: readonly Prompt[], after: string | undefined): readonly Prompt[] {
  return after === undefined ? prompts : prompts.slice(prompts.findIndex((prompt) => prompt.name === after) + 1);
}

function keeping(kept: Readonly<Record<string, JsonValue>>, name: string, keep: JsonValue | undefined): Readonly<Record<string, JsonValue>> {
  return keep === undefined ? kept : { ...kept, [name]: keep };
}

/** What a held login keeps of a request. */
function heldRequestOf(request: { readonly service?: string; readonly sessionTgtId?: string; readonly session?: string; readonly renew: boolean; readonly warn: boolean; readonly stepUp?: boolean; readonly method: string }): HeldRequest {
  const session = request.session ?? request.sessionTgtId;
  return {
    ...(request.service !== undefined && { service: request.service }),
    ...(session !== undefined && { session }),
    renew: request.renew,
    warn: request.warn,
    ...(request.stepUp === true && { stepUp: true }),
    method: request.method,
  };
}

/** A record holds no undefined field (JSON). */
function withoutUndefined<Value extends object>(value: Value): Value {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Value;
}
