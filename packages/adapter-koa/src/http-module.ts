import type { RouterMiddleware } from '@koa/router';
import type Router from '@koa/router';
import type { AuthenticationThrottle, CasCore, Credential, EventSink, JwtTickets, RequestRateLimit } from '@tessera/core';
import type { Context } from 'koa';
import type { HttpOptions } from './http-options.js';
import type { RequestObserver } from './observability/observe-requests.js';
import type { CredentialExtractor } from './request/credentials.js';
import type { RequestParameters } from './request/parameters.js';
import type { ThrottleCondition } from './throttle/throttle-step.js';

/** One named step of a route (node-oidc-provider style): checks or does one thing, then calls next. */
export type Step = RouterMiddleware;

/** What a module's routes may use: the core, the options, and the request helpers shared by every route. */
export interface HttpContext {
  readonly core: CasCore;
  readonly options: HttpOptions;
  readonly events: EventSink;
  readonly extractors: readonly CredentialExtractor[];
  /** The tokens module's JWT tickets; undefined when the module is off (the `token` flag is then ignored). */
  readonly tokens: JwtTickets | undefined;
  /** Route step: refuses unreadable bodies (415, 413, 400) and parses form and JSON bodies. */
  readonly readBody: Step;
  /**
   * Route step of the throttle module, placed right after readBody on every route that checks
   * credentials (only for requests meeting `condition` when given); passes every request on when the module is off.
   */
  throttle(condition?: ThrottleCondition): Step;
  /** Route step of the validation endpoints: the request-rate limit per client IP, when one is configured. */
  readonly limitRequestRate: Step;
  /** Body parameters over query parameters; throws InvalidRequestError for non-string JSON values. */
  parameters(ctx: Context): RequestParameters;
  /** What every installed extractor finds in the request, in extractor order. */
  credentials(ctx: Context): Credential[];
}

/** A capability's routes (rest, tokens, services, ...); the composition root passes the enabled ones. */
export interface HttpModule {
  readonly name: string;
  register(router: Router, context: HttpContext): void;
}

export interface AppDependencies {
  readonly core: CasCore;
  readonly options: HttpOptions;
  /** Enabled modules' routes; the validation endpoints are always on. */
  readonly modules: readonly HttpModule[];
  /** Every installed extractor runs on every credential-taking request. */
  readonly extractors: readonly CredentialExtractor[];
  /** Unexpected errors are reported as `server.error`. */
  readonly events: EventSink;
  /** Present only with the tokens module. */
  readonly tokens?: JwtTickets;
  /** Present only with the throttle module. */
  readonly throttle?: AuthenticationThrottle;
  /** Present only with the throttle module and a validation request rate configured. */
  readonly validationRateLimit?: RequestRateLimit;
  /** Told the method, route pattern, status and duration of every request (the latency histogram). */
  readonly observeRequest?: RequestObserver;
}
