import type { CasCore, Credential, EventSink } from '@tessera/core';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { HttpExtensions, RequestCondition, TicketEncoding, ValidationExtension } from './http-extensions.js';
import type { HttpOptions } from './http-options.js';
import type { RequestObserver } from './observability/observe-requests.js';
import type { CredentialExtractor } from './request/credentials.js';
import type { FailureRendering, Route, Step } from './routes/route.js';

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
  /** How REST routes answer core errors (the one status table; text/plain or JSON bodies). */
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
  /** Every module's ticket encoding: none, and tickets travel as bare ids only. */
  readonly ticketEncodings: readonly TicketEncoding[];
  /** The stored ticket's id for what a client sent where a ticket id is read (path or query): an id, or a ticket in an encoding. */
  ticketIdOf(idOrEncoded: string): Promise<string>;
  /** Every module's validation extension, read by the CAS 2 and 3 validation paths. */
  readonly validationExtensions: readonly ValidationExtension[];
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
