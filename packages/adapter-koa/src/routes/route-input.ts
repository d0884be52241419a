import { InvalidRequestError } from '@tessera/core';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { RouteErrors, RouteInput, RouteRequest } from './route.js';

const FORM = 'application/x-www-form-urlencoded';

/** What parsing a route's parameters refuses, for the document. */
export const PARAMETER_ERRORS: RouteErrors = {
  INVALID_REQUEST: 'A JSON body that is not an object, or a parameter the schema refuses (a JSON value that is not a string), named in the message.',
};

/**
 * What parsing a route's input needs, worked out once when the route is registered: its schemas and
 * the header names they read (only those are copied from a request).
 */
export class RouteInputReader {
  private readonly headerNames: readonly string[];

  constructor(readonly request: RouteRequest) {
    this.headerNames = Object.keys(request.headers?.shape ?? {});
  }

  read(ctx: Context): RouteInput {
    const { request } = this;
    // Only what the route declares is read: every request pays for what is built here.
    const sent = request.parameters ? sentParameters(ctx) : {};
    return {
      params: parse(request.params, (ctx as { params?: unknown }).params ?? {}, 'Path parameter'),
      parameters: parse(request.parameters, sent, 'Parameter'),
      query: request.query ? parse(request.query, queryParameters(ctx), 'Parameter') : {},
      headers: request.headers ? parse(request.headers, headerValues(ctx, this.headerNames), 'Header') : {},
      // Parsing `parameters` admitted only string values.
      sentParameters: sent as Record<string, string>,
    };
  }
}

/** A request's input: parsed on first use, then the same input (or the same refusal) every time. */
class Binding {
  private outcome: { input: RouteInput } | { error: unknown } | undefined;

  constructor(
    private readonly ctx: Context,
    readonly reader: RouteInputReader,
  ) {}

  read(): RouteInput {
    if (!this.outcome) {
      try {
        this.outcome = { input: this.reader.read(this.ctx) };
      } catch (error) {
        this.outcome = { error };
      }
    }
    if ('error' in this.outcome) throw this.outcome.error;
    return this.outcome.input;
  }
}

/**
 * Where a request's binding lives: on its context. A WeakMap keyed by short-lived contexts costs V8 an
 * ephemeron pass in every young-generation GC; measured, it doubled the CPU of a status request.
 */
const BINDING = Symbol('routeInput');

function bindingOf(ctx: Context): Binding | undefined {
  return (ctx.state as { [BINDING]?: Binding })[BINDING];
}

/** The route's first step: its input is parsed by `reader` once, when a step or the handler first asks. */
export function bindInput(ctx: Context, reader: RouteInputReader): void {
  (ctx.state as { [BINDING]?: Binding })[BINDING] = new Binding(ctx, reader);
}

/** The route's parsed input; throws InvalidRequestError, naming the value, for input its schemas refuse. */
export function inputOf(ctx: Context): RouteInput {
  const binding = bindingOf(ctx);
  if (!binding) throw new Error('No route input is bound to this request');
  return binding.read();
}

/** As inputOf, typed by the route's own request schemas (checked to be the ones the route declared). */
export function typedInputOf<Request extends RouteRequest>(ctx: Context, request: Request): RouteInput<Request> {
  if (bindingOf(ctx)?.reader.request !== request) throw new Error('The request schemas are not those of this route');
  return inputOf(ctx);
}

function queryParameters(ctx: Context): Record<string, string> {
  const { querystring } = ctx;
  return querystring === '' ? {} : Object.fromEntries(firstValues(new URLSearchParams(querystring)));
}

/** The headers a route reads, repeated ones joined as HTTP joins them. */
function headerValues(ctx: Context, names: readonly string[]): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const name of names) {
    const value = ctx.headers[name];
    if (value !== undefined) values[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return values;
}

function parse(schema: z.ZodObject | undefined, value: unknown, kind: string): Readonly<Record<string, unknown>> {
  if (!schema) return {};
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = issue?.path[0];
  if (name === undefined) return refuse('The JSON request body must be an object of string parameters');
  const expected = issue?.code === 'invalid_type' ? `must be a ${issue.expected}` : `is invalid: ${issue?.message}`;
  return refuse(`${kind} '${clip(String(name))}' ${expected}`);
}

function refuse(message: string): never {
  throw new InvalidRequestError(message);
}

/**
 * Body parameters (form or JSON) over query parameters; a repeated name yields its first value, as a
 * servlet's getParameter. A JSON body that is not an object is passed on as it is, for the schema to refuse.
 */
function sentParameters(ctx: Context): unknown {
  const query = queryParameters(ctx);
  if (ctx.request.rawBody === undefined) return query;
  if (ctx.req.headers['content-type'] === FORM || ctx.is(FORM)) return { ...query, ...Object.fromEntries(firstValues(new URLSearchParams(ctx.request.rawBody))) };
  const body: unknown = ctx.request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return { ...query, ...body };
}

/** URLSearchParams decodes leniently: a malformed escape stays as written instead of failing. */
function firstValues(search: URLSearchParams): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of search) if (!values.has(name)) values.set(name, value);
  return values;
}

function clip(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}
