import type { AuthenticationThrottle, CasCore, Credential, EventSink, IssueProxyGrantingTicket, JwtTickets, RequestRateLimit } from '@tessera/core';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { HttpOptions } from './http-options.js';
import type { RequestObserver } from './observability/observe-requests.js';
import type { CredentialExtractor } from './request/credentials.js';
import type { FailureRendering, Route, Step } from './routes/route.js';
import type { ThrottleCondition } from './throttle/throttle-step.js';

export type { Step } from './routes/route.js';

/** What a module's routes may use: the core, the options, and the request helpers shared by every route. */
export interface HttpContext {
  readonly core: CasCore;
  readonly options: HttpOptions;
  readonly events: EventSink;
  /** What the installed extractors read: every credential-taking route parses and documents it. */
  readonly credentialSchemas: { readonly parameters: z.ZodRawShape; readonly headers: z.ZodRawShape };
  /** The tokens module's JWT tickets; undefined when the module is off (the `token` flag is then ignored). */
  readonly tokens: JwtTickets | undefined;
  /** The proxy module's PGTs for a validation's `pgtUrl`; undefined when the module is off (`pgtUrl` is then ignored). */
  readonly proxyGranting: IssueProxyGrantingTicket | undefined;
  /** Route step: refuses unreadable bodies (415, 413, 400) and parses form and JSON bodies. */
  readonly readBody: Step;
  /**
   * Route step of the throttle module, placed right after readBody on every route that checks
   * credentials (only for requests meeting `condition` when given); passes every request on when the module is off.
   */
  throttle(condition?: ThrottleCondition): Step;
  /** Route step of the validation endpoints: the request-rate limit per client IP, when one is configured. */
  readonly limitRequestRate: Step;
  /** What every installed extractor finds in the route's parsed input, in extractor order. */
  credentials(ctx: Context): Credential[];
  /** How REST routes answer core errors (the one status table; text/plain or JSON bodies). */
  readonly restFailures: FailureRendering;
}

/** A capability's routes (rest, services, ...); the composition root passes the enabled ones. */
export interface HttpModule {
  readonly name: string;
  routes(context: HttpContext): Route[];
}

export interface AppDependencies {
  readonly core: CasCore;
  readonly options: HttpOptions;
  /** Enabled modules' routes; the validation endpoints and the OpenAPI document are always on. */
  readonly modules: readonly HttpModule[];
  /** Every installed extractor runs on every credential-taking request. */
  readonly extractors: readonly CredentialExtractor[];
  /** Unexpected errors are reported as `server.error`. */
  readonly events: EventSink;
  /** Present only with the tokens module. */
  readonly tokens?: JwtTickets;
  /** Present only with the proxy module. */
  readonly proxyGranting?: IssueProxyGrantingTicket;
  /** Present only with the throttle module. */
  readonly throttle?: AuthenticationThrottle;
  /** Present only with the throttle module and a validation request rate configured. */
  readonly validationRateLimit?: RequestRateLimit;
  /** Told the method, route pattern, status and duration of every request (the latency histogram). */
  readonly observeRequest?: RequestObserver;
  /** The server's version, as the OpenAPI document's `info.version`. */
  readonly version?: string;
}
