import { InvalidRequestError } from '@tessera/core';
import type { Context } from 'koa';

/** Request parameters by name; a repeated name yields its first value, as a servlet's getParameter. */
export interface RequestParameters {
  get(name: string): string | undefined;
  names(): string[];
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
/** The body media types routes read; any other body is refused with 415. */
export const READABLE_BODY_TYPES: readonly string[] = [FORM, JSON_TYPE];

const memo = new WeakMap<Context, RequestParameters>();

/** Body parameters (form or JSON object) over query parameters, read once per request. */
export function requestParameters(ctx: Context): RequestParameters {
  let parameters = memo.get(ctx);
  if (!parameters) {
    const values = firstValues(new URLSearchParams(ctx.querystring));
    for (const [name, value] of bodyEntries(ctx)) values.set(name, value);
    parameters = mapParameters(values);
    memo.set(ctx, parameters);
  }
  return parameters;
}

/** Query parameters only: the validation endpoints read nothing else. */
export function queryParameters(ctx: Context): RequestParameters {
  return mapParameters(firstValues(new URLSearchParams(ctx.querystring)));
}

/** Blank values count as absent (CAS ignores a blank `service`). */
export function optionalParameter(parameters: RequestParameters, name: string): string | undefined {
  const value = parameters.get(name);
  return value === undefined || value.trim() === '' ? undefined : value;
}

function bodyEntries(ctx: Context): Iterable<[string, string]> {
  if (ctx.request.rawBody === undefined) return [];
  if (ctx.is(FORM)) return firstValues(new URLSearchParams(ctx.request.rawBody));
  return jsonStrings(ctx.request.body);
}

/** A JSON body carries an object of strings; anything else names the offending parameter. */
function jsonStrings(body: unknown): [string, string][] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidRequestError('The JSON request body must be an object of string parameters');
  }
  return Object.entries(body).map(([name, value]): [string, string] => {
    if (typeof value !== 'string') throw new InvalidRequestError(`Parameter '${clip(name)}' must be a string`);
    return [name, value];
  });
}

/** URLSearchParams decodes leniently: a malformed escape stays as written instead of failing. */
function firstValues(search: URLSearchParams): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of search) if (!values.has(name)) values.set(name, value);
  return values;
}

function mapParameters(values: ReadonlyMap<string, string>): RequestParameters {
  return { get: (name) => values.get(name), names: () => [...values.keys()] };
}

function clip(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}
