import type {
  CasCore,
  ClientAuthenticationGuard,
  Credential,
  CredentialsPrompt,
  EventSink,
  GrantedServiceTicket,
  JsonValue,
  LoginPrompt,
  PromptContext,
  RegisteredService,
  SessionPrompt,
  TicketGrantingTicket,
  TicketPrompt,
  TicketPromptContext,
  ValidatedServiceTicket,
} from '@tessera/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import type { HttpOptions } from './http-options.js';
import type { Html } from './pages/html.js';
import type { RequestObserver } from './observability/observe-requests.js';
import type { CredentialExtractor } from './request/credentials.js';
import type { FailureRendering, Route, RouteInput, Step } from './routes/route.js';
import type { ValidationAnswerExtras } from './validation/validation-views.js';

/** A guard on a mounted provider's client authentication, its subject and its outcome: core's port, which the throttle module implements. */
export type { ClientAuthenticationGuard, ClientAuthenticationOutcome, ClientAuthenticationSubject } from '@tessera/core';

export type { Step } from './routes/route.js';

/** What every route and every module's extensions may use: the core, the options, and the request helpers shared by all routes. */
export interface HttpBasics {
  readonly core: CasCore;
  readonly options: HttpOptions;
  readonly events: EventSink;
  /** What the installed extractors read: every credential-taking route parses and documents it. */
  readonly credentialSchemas: { readonly parameters: z.ZodRawShape; readonly headers: z.ZodRawShape };
  /** Route step: refuses unreadable bodies (415, 413, 400) and parses form and JSON bodies. */
  readonly readBody: Step;
  /** What every installed extractor finds in the route's parsed input, in extractor order. */
  credentials(ctx: Context): Credential[];
  /** How REST routes answer core errors (the one status table in the current revision; text/plain or JSON bodies). */
  readonly restFailures: FailureRendering;
}

/** What a module's routes may use: the basics, and what every module contributed at each extension point. */
export interface HttpContext extends HttpBasics {
  /**
   * Every module's credential guard, to place right after readBody on every route that checks
   * credentials (only for requests meeting `condition` when given); none when no module guards.
   */
  credentialGuards(condition?: RequestCondition): Step[];
  /** Every module's validation guard, to place right after the failure renderer of the validation endpoints and /proxy. */
  readonly validationGuards: readonly Step[];
  /** Every module's form guard, to place right after the failure renderer of the routes browsers post forms to (POST /login). */
  readonly formGuards: readonly Step[];
  /** Every module's authorization guard, for a mounted app to run in front of each authorization request it serves (it has no route steps). */
  readonly authorizationGuards: readonly Step[];
  /** Every module's client authentication guard, for a mounted provider to ask before it checks a client's secret or assertion. */
  readonly clientAuthenticationGuards: readonly ClientAuthenticationGuard[];
  /** Every module's ticket encoding: none, and tickets travel as bare ids only. */
  readonly ticketEncodings: readonly TicketEncoding[];
  /** The stored ticket's id for what a client sent where a ticket id is read (path or query): an id, or a ticket in an encoding. */
  ticketIdOf(idOrEncoded: string): Promise<string>;
  /** Every module's validation extension, read by the CAS 2 and 3 validation paths. */
  readonly validationExtensions: readonly ValidationExtension[];
  /** Every module's prompts of the browser login with their views, in module order. */
  readonly loginPrompts: readonly LoginPromptPart[];
  /** Every module's say in where the browser goes after a logout at /logout, in module order (the first that takes it has it). */
  readonly afterLogout: readonly AfterLogout[];
}

/**
 * A capability's part of the HTTP face (rest, services, throttle, ...): its own routes, and what it
 * adds to routes that are not its own. The composition root passes the enabled ones.
 */
export interface HttpModule {
  readonly name: string;
  routes?(http: HttpContext): Route[];
  /** What it adds at the extension points; asked once per app, before any route is built. */
  extensions?(http: HttpBasics): HttpExtensions;
  /**
   * An app of its own (a library's Koa app), asked before the routes for every request that passed the
   * error renderer and the host check: it calls next for those not its own, and for its module's routes.
   */
  mounted?(http: HttpContext): Middleware;
  /**
   * Requests it answers on the listener itself, before tessera's app (no context of the app's, no error
   * renderer, no router): a library's own app on its hot paths, which renders its own errors and finds
   * the client address by the same trusted-proxy rule. Only for an app that needs no guard of the app's
   * on those requests, with `server.publicUrl` set (the app's host check passes every request then).
   */
  directLane?(http: HttpContext): DirectLane;
}

/** Requests a module answers on the listener, before tessera's app; the app still times each for the request metrics. */
export interface DirectLane {
  /**
   * Answers the request when it is the lane's (decided from its method and target, `request.url`),
   * else returns undefined and leaves it to the app. Never throws, and its answer never rejects: it
   * settles once the request is answered.
   */
  serve(request: IncomingMessage, response: ServerResponse): Promise<void> | undefined;
  /**
   * Told once the answer to a request the lane served settled: the route pattern that answered it (base
   * path included), or undefined when none did. The lane lets go of what it kept for the request.
   */
  settled(request: IncomingMessage): string | undefined;
}

export interface AppDependencies {
  readonly core: CasCore;
  readonly options: HttpOptions;
  /** Enabled modules' routes and extensions; the validation endpoints and the OpenAPI document are always on. */
  readonly modules: readonly HttpModule[];
  /** Every installed extractor runs on every credential-taking request. */
  readonly extractors: readonly CredentialExtractor[];
  /** Unexpected errors are reported as `server.error`. */
  readonly events: EventSink;
  /** Told the method, route pattern, status and duration of every request (the latency histogram). */
  readonly observeRequest?: RequestObserver;
  /** The server's version, as the OpenAPI document's `info.version`. */
  readonly version?: string;
}

/** Which requests of a route check credentials, e.g. POST /v1/tickets/{tgt} only with `renew`. */
export type RequestCondition = (ctx: Context) => boolean;

/**
 * What a module adds to routes that are not its own, at named points the central routes consume without
 * knowing which module filled them. createApp gathers each point from every module, in module order.
 */
export interface HttpExtensions {
  /**
   * A step for every route that checks credentials, placed right after its body is read; `condition`,
   * when the route gives one, says which of its requests check them (the others must pass untouched).
   */
  credentialGuard?(condition?: RequestCondition): Step;
  /** A step placed first on the validation endpoints and /proxy, right after their failure renderer. */
  readonly validationGuard?: Step;
  /**
   * A step placed first on the routes browsers post forms to (POST /login), right after their failure
   * renderer, before the body is read: such a post costs the server a token claim and a password hash.
   */
  readonly formGuard?: Step;
  /**
   * A step in front of every authorization request of an OAuth 2.0 / OpenID Connect provider a module
   * mounts, before the provider reads it: such a request from a browser that has not logged in makes
   * the server keep it until the login comes back. A mounted app has no route steps: it runs these
   * itself, and renders what they throw.
   */
  readonly authorizationGuard?: Step;
  /**
   * Asked by an OAuth 2.0 / OpenID Connect provider a module mounts once it has looked the named client
   * up and before it checks the secret or assertion a client authenticates with (its token, introspection and revocation endpoints), and told
   * the outcome: such a request costs a secret comparison or a signature check, and answers whether a
   * guessed secret is right.
   */
  readonly clientAuthenticationGuard?: ClientAuthenticationGuard;
  /** Another form tickets may travel in. */
  readonly ticketEncoding?: TicketEncoding;
  /** More query parameters of the CAS 2 and 3 validation paths, and what they add to a success. */
  readonly validation?: ValidationExtension;
  /** Prompts of the browser login with their views, in the module's order, shown by the login module's pages (nowhere without it). */
  readonly loginPrompts?: readonly LoginPromptPart[];
  /** Where the browser goes after a logout at /logout, for the sessions the module has more to end for (taken by the login module's logout). */
  readonly afterLogout?: AfterLogout;
}

/**
 * A module's say in where the browser goes once a logout at `/logout` is done, for a session it has
 * more to end for elsewhere (the delegation module: the upstream identity provider's session). The
 * logout route asks every module's, in module order, before the session ends (`before`: what the module
 * keeps of the session is still there then); then it ends the session as ever (the TGT destroyed,
 * single logout run, the cookie cleared) and asks what each answered, in order, for a URL: the first
 * URL is where the browser goes instead of the logged-out page (after the front-channel calls, when
 * there are any). The module must bring the browser back to `/logout`, with `service` when `next` is
 * given, so the logout ends on tessera's page or goes on to the service as it would have.
 */
export interface AfterLogout {
  /**
   * The session `tgtId` is about to end at `/logout`: what to do once it has, or undefined when the
   * module has nothing more to end for it. Never throws: the logout must go on.
   */
  before(ctx: Context, tgtId: string): Promise<AfterLogoutStep | undefined>;
}

/**
 * Asked once the session has ended: the URL the browser goes to, `next` being the service the logout
 * goes on to (a registered service tessera allows), if any; undefined to stay with the logged-out
 * page. Never throws: a failure leaves the browser on tessera's page, logged out.
 */
export type AfterLogoutStep = (next: string | undefined) => Promise<string | undefined>;

/**
 * A prompt of the browser login (core's LoginPrompt, ports/login-prompt.ts) with its view: what a module
 * adds to the login, shown by the login module's pages (nowhere without it). Pair them with
 * `loginPromptPart`, which checks that the view reads what its prompt takes.
 */
export type LoginPromptPart =
  | { readonly prompt: CredentialsPrompt; readonly view: LoginPageView }
  | { readonly prompt: SessionPrompt | TicketPrompt; readonly view: PromptView };

/** A part of the login page with its view, or a prompt with its page's view. */
export function loginPromptPart<Prepared extends JsonValue>(prompt: CredentialsPrompt<Prepared>, view: LoginPageView<Prepared>): LoginPromptPart;
export function loginPromptPart<Prepared extends JsonValue, Input, Stop>(prompt: SessionPrompt<Prepared, Input, Stop>, view: PromptView<Prepared, Input, Stop>): LoginPromptPart;
export function loginPromptPart<Prepared extends JsonValue, Input, Stop>(prompt: TicketPrompt<Prepared, Input, Stop>, view: PromptView<Prepared, Input, Stop, TicketPromptContext>): LoginPromptPart;
export function loginPromptPart(prompt: LoginPrompt, view: LoginPageView | PromptView): LoginPromptPart {
  return { prompt, view } as LoginPromptPart;
}

/** The login form as the user sent it, for a part that fills itself in again: never a secret. */
export interface LoginFormState {
  /** The username sent, shown again after a refusal. */
  readonly username?: string;
  /** The id of the message the form shows, which the first field names as its description. */
  readonly describedBy?: string;
}

/**
 * The view of a part of the login page (the password, the otp module's code, a passkey button): its
 * markup in the page's language (`login.language`; a module without texts in it uses its English
 * ones), from what its prompt prepared, built with `html` so every text is escaped. What it posts is
 * read by the module's credential extractor.
 */
export interface LoginPageView<Prepared = JsonValue> {
  markup(language: string, prepared: Prepared | undefined, form: LoginFormState): Html;
  /** A script the page runs with the part: inline, its SHA-256 in the page's Content-Security-Policy (never `unsafe-inline`). */
  script?(prepared: Prepared | undefined): string | undefined;
  /** Script files the page loads before its inline scripts (a library the module serves), each allowed by its URL alone. */
  readonly scriptFiles?: readonly ScriptFile[];
}

/**
 * A script file a page loads (a library a module serves from its own route): its absolute URL, which the
 * page's Content-Security-Policy allows by itself (no `'self'`), and its Subresource Integrity digest.
 */
export interface ScriptFile {
  readonly url: string;
  /** `sha384-…` of the file's bytes. */
  readonly integrity: string;
}

/**
 * The view of a prompt with a page of its own (after the credentials, before a ticket): its page, what
 * its prompt is given of what the page posts, and what a stop of its prompt shows. The login module
 * gives the page a form token of its own and takes its post on `POST /login/step`, behind the form
 * and credential guards (the throttle counts a refusal against the login's user).
 */
export interface PromptView<Prepared = JsonValue, Input = unknown, Stop = unknown, Context extends PromptContext = PromptContext> {
  /** What its page posts, parsed and documented on POST /login/step beside the route's own parameters. */
  readonly parameters: z.ZodRawShape;
  /** Its page in the page's language, from what its prompt prepared. */
  page(language: string, context: Context, prepared: Prepared | undefined): PromptPage;
  /** What its prompt's `complete` is given, from the post's parsed parameters. */
  read(parameters: Readonly<Record<string, unknown>>): Input;
  /** The page shown when its prompt stops the login (no session or no ticket), in place of the rest. */
  stopped?(language: string, stop: Stop, context: Context): { readonly heading: string; readonly content: Html };
}

/** A prompt's page: the heading, what goes in the form before its button, the button, and the message after a refusal. */
export interface PromptPage {
  readonly heading: string;
  readonly content: Html;
  readonly submit: string;
  readonly refused: string;
  /** A script the page runs: inline, its SHA-256 in the page's Content-Security-Policy (never `unsafe-inline`). */
  readonly script?: string;
  /** Script files the page loads before `script`, each allowed by its URL alone. */
  readonly scriptFiles?: readonly ScriptFile[];
  /** The parameter and value the submit button posts, for a page with a choice (`alternative`). */
  readonly submitValue?: StepChoice;
  /** A second button after the submit one, posting its own value of a parameter the step reads (Deny beside Allow). */
  readonly alternative?: StepChoice & { readonly label: string };
}

/** What a button of a prompt's page posts: one value of one parameter. */
export interface StepChoice {
  readonly name: string;
  readonly value: string;
}

/**
 * The browser's login session (CAS's ticket-granting cookie), as the module that keeps it (login)
 * provides it to other modules (the container's `BrowserSessions`): which session a request's cookie
 * names, and forgetting it there when the session ends elsewhere (an OpenID Connect logout).
 */
export interface BrowserSessions {
  /** The TGT the request's session cookie names, if it sent one that opens. */
  sessionOf(ctx: Context): Promise<string | undefined>;
  /** Clears the request's session cookie when it names this TGT. */
  forget(ctx: Context, tgtId: string): Promise<void>;
}

/**
 * A form tickets travel in beside their bare ids (the tokens module's JWTs, docs/protocol.md §6): a client
 * may ask POST /v1/tickets for its TGT in it, a service may get its STs in it, and wherever a ticket id
 * is read, a ticket in this form stands for the stored ticket it names.
 */
export interface TicketEncoding {
  /** What a client sends to POST /v1/tickets to ask for the TGT in this form, beside the route's own parameters and headers. */
  readonly request: { readonly parameters: z.ZodRawShape; readonly headers: z.ZodRawShape };
  /** Whether this POST /v1/tickets asked for the TGT in this form. */
  requested(input: RouteInput): boolean;
  /** The new TGT in this form: the 201's whole body, answered without Location. */
  ticketGrantingTicket(ctx: Context, tgt: TicketGrantingTicket, sentParameters: Readonly<Record<string, string>>): Promise<string>;
  /** Whether the STs of this service are answered in this form. */
  encodesServiceTicketsFor(service: RegisteredService): boolean;
  serviceTicket(ctx: Context, granted: GrantedServiceTicket): Promise<string>;
  /** The id of the stored ticket a ticket in this form names; any other text as it is. */
  ticketId(idOrEncoded: string): Promise<string>;
  /**
   * How the rest routes' OpenAPI texts name it: how a client asks for it ("with `token`"), a TGT in it
   * ("the TGT as a JWT") and an ST in it, with the services that get one.
   */
  readonly described: { readonly requested: string; readonly ticketGrantingTicket: string; readonly serviceTicket: string };
}

/**
 * What a module adds to the CAS 2 and 3 validation paths (not CAS 1's /validate nor /samlValidate), such as
 * the proxy module's `pgtUrl` (docs/protocol.md §13.1): query parameters, and once a ticket validated,
 * optional parts of the success answer. A failure of its own must not fail the validation.
 */
export interface ValidationExtension {
  /** Query parameters it reads, parsed and documented with the paths' own. */
  readonly query: z.ZodRawShape;
  /** What it adds to the success answer of this validation, from the route's parsed query. */
  answer(ctx: Context, validated: ValidatedServiceTicket, query: Readonly<Record<string, unknown>>): Promise<ValidationAnswerExtras>;
}
