import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { ErrorCode } from '@tessera/core';
import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'delete';

/** Core errors a step or a handler may raise, each with what it means there. Statuses come from the one table. */
export type RouteErrors = Partial<Readonly<Record<ErrorCode, string>>>;

/** One named step of a route (node-oidc-provider style): checks or does one thing, then calls next. */
export type Step = RouterMiddleware & {
  /** What the step refuses requests with, for the OpenAPI document. */
  readonly errors?: RouteErrors;
};

/** An answer as the OpenAPI document shows it: body schema by media type, and the headers it sets. */
export interface ResponseDoc {
  readonly description: string;
  readonly content?: Readonly<Record<string, z.ZodType>>;
  readonly headers?: z.ZodObject;
}

/** How a family of routes answers a core error: the status and the body (validation routes: a CAS document). */
export interface FailureRendering {
  statusOf(code: ErrorCode): number;
  response(code: ErrorCode): Omit<ResponseDoc, 'description'>;
}

/**
 * What a route reads, as zod schemas: the route parses its input through them (so a value of the
 * wrong type is refused, naming it) and the OpenAPI document is generated from them.
 */
export interface RouteRequest {
  /** Path parameters: every `{name}` of the path. */
  readonly params?: z.ZodObject;
  /** Parameters of the query string, a form body or a JSON object body (the body wins); documented as the body. */
  readonly parameters?: z.ZodObject;
  /** Parameters of the query string only (the validation endpoints). */
  readonly query?: z.ZodObject;
  /** Request headers, by lower-case name. */
  readonly headers?: z.ZodObject;
  /** A body the handler gives whole to its own parser (a SOAP envelope, a service definition): documented only. */
  readonly body?: { readonly description: string; readonly content: Readonly<Record<string, z.ZodType>> };
}

type Parsed<Schema> = Schema extends z.ZodType ? z.output<Schema> : Readonly<Record<string, unknown>>;

export interface RouteInput<Request extends RouteRequest = RouteRequest> {
  readonly params: Parsed<Request['params']>;
  readonly parameters: Parsed<Request['parameters']>;
  readonly query: Parsed<Request['query']>;
  readonly headers: Parsed<Request['headers']>;
  /** Every parameter as sent (all strings: `parameters` admits no other value), e.g. for JWT claims. */
  readonly sentParameters: Readonly<Record<string, string>>;
}

/** One route: what the router serves and what the OpenAPI document shows, from the same declaration. */
export interface RouteDeclaration<Request extends RouteRequest> {
  readonly method: HttpMethod;
  /** Under the base path, in OpenAPI form: `/v1/tickets/{tgt}`. */
  readonly path: string;
  /** Unique among all routes: client generators name their functions after it. */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly request: Request;
  /** Answers of a request the handler completes; failures come from `errors` and the steps' errors. */
  readonly responses: Readonly<Record<number, ResponseDoc>>;
  readonly errors?: RouteErrors;
  readonly failures: FailureRendering;
  /** Takes HTTP Basic credentials (the document's `basicAuth` security scheme). */
  readonly basicAuth?: boolean;
  /** Every method reaches the route; a step of its own refuses the others in the route's own format. */
  readonly everyMethod?: boolean;
  /** Run in order before the handler. */
  readonly steps: readonly Step[];
  handle(ctx: RouterContext, input: RouteInput<Request>): Promise<void>;
}

/** A declaration with its input type erased, as the router and the document take it. */
export type Route = Omit<RouteDeclaration<RouteRequest>, 'handle'> & {
  handle(ctx: RouterContext, input: RouteInput): Promise<void>;
};

/** Keeps the handler's input typed by the request schemas, then erases it for the route list. */
export function defineRoute<const Request extends RouteRequest>(declaration: RouteDeclaration<Request>): Route {
  return { ...declaration, handle: (ctx, input) => declaration.handle(ctx, input) };
}

/** Marks a step with the errors it may refuse a request with. */
export function withErrors<S extends RouterMiddleware>(step: S, errors: RouteErrors): S & Step {
  return Object.assign(step, { errors });
}
