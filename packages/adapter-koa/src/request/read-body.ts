import { UnsupportedMediaTypeError } from '@tessera/core';
import { koaBody, type KoaBodyMiddlewareOptions } from 'koa-body';
import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { bodyReadError } from '../errors/normalize-error.js';
import { withErrors, type RouteErrors, type Step } from '../routes/route.js';

/** The body media types routes read; any other body is refused with 415. */
const READABLE_BODY_TYPES: readonly string[] = ['application/x-www-form-urlencoded', 'application/json'];

/**
 * The body-reading step of every route: a body of a media type routes do not read is refused (415)
 * before a byte of it is read; JSON bodies up to `maxBodyBytes` are parsed and form bodies read as
 * text (413 beyond, 400 for malformed JSON). A form is decoded once, by the route's input, literally
 * (`a[b]` stays a name, not the nested object koa-body's qs parse would make of it).
 */
export function readBody(maxBodyBytes: number): Step {
  const json: Partial<KoaBodyMiddlewareOptions> = { json: true, jsonStrict: true, jsonTypes: ['application/json'], jsonLimit: maxBodyBytes, includeUnparsed: true };
  const formAsText: Partial<KoaBodyMiddlewareOptions> = { text: true, textTypes: ['application/x-www-form-urlencoded'], textLimit: maxBodyBytes, includeUnparsed: true };
  return bodyOf(
    READABLE_BODY_TYPES,
    bodyParser({ ...json, ...formAsText }),
    { 'application/json': bodyParser(json), 'application/x-www-form-urlencoded': plainForm(maxBodyBytes, bodyParser(formAsText)) },
    { INVALID_REQUEST: 'The JSON body is malformed, or the body does not decode as its `Content-Encoding` says.' },
  );
}

/**
 * How every body is decoded: koa-body inflates gzip, deflate and br (any other Content-Encoding is
 * 415) and applies its size limits to the inflated bytes, so a small body that inflates past them
 * is 413. What fails while reading (a body that is not in its declared encoding) is the client's:
 * 400, never a server error.
 */
const DECODING = {
  onError: (error: Error) => {
    throw bodyReadError(error);
  },
} satisfies Partial<KoaBodyMiddlewareOptions>;

/** koa-body reading only what `options` turn on: no JSON, form (qs) or multipart parse unless asked. */
function bodyParser(options: Partial<KoaBodyMiddlewareOptions>): Middleware {
  return koaBody({ ...DECODING, json: false, urlencoded: false, text: false, multipart: false, ...options });
}

/** The methods whose bodies koa-body reads (its default `parsedMethods`). */
const PARSED_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A form body in no Content-Encoding read exactly as koa-body's text parser reads it (co-body: raw-body
 * with the declared length, the limit, UTF-8 through iconv-lite; the same errors), without its
 * per-request option handling; the form bodies of every other request go to `otherwise` (koa-body).
 */
function plainForm(maxBodyBytes: number, otherwise: Middleware): Middleware {
  return async function readPlainForm(ctx, next) {
    const { headers } = ctx.req;
    if (headers['content-encoding'] !== undefined || !PARSED_METHODS.has(ctx.method.toUpperCase())) {
      await otherwise(ctx, next);
      return;
    }
    const declared = headers['content-length'];
    let text: string;
    try {
      // `~~` as co-body: its length, whatever the header holds.
      text = await getRawBody(ctx.req, { limit: maxBodyBytes, encoding: 'utf-8', ...(declared && { length: ~~declared }) });
    } catch (error) {
      throw bodyReadError(error);
    }
    ctx.request.body = text;
    ctx.request.rawBody = text;
    await next();
  };
}

/**
 * A step reading bodies of `types` only: any other is refused (415) before a byte of it is read,
 * then `parse` (koa-body, with its size limit: 413) reads it. A `Content-Type` that is exactly one of
 * `types` goes to that type's own parser in `parseExactly`, which matches no other type: the same
 * answer with one media-type match per request instead of one per type and one for the refusal.
 */
function bodyOf(types: readonly string[], parse: Middleware, parseExactly: Readonly<Record<string, Middleware>>, errors: RouteErrors): Step {
  const exactParsers = new Map(Object.entries(parseExactly));
  return withErrors(
    async function refuseUnreadableBody(ctx, next) {
      const declared = ctx.req.headers['content-type'];
      const exactParser = declared === undefined ? undefined : exactParsers.get(declared);
      if (!exactParser && carriesBody(ctx) && !ctx.is([...types])) throw new UnsupportedMediaTypeError(`Unsupported request body type; send ${types.join(' or ')}`);
      normalizeContentEncoding(ctx);
      // Without a body koa-body matches no type and reads nothing.
      if (hasBody(ctx)) await (exactParser ?? parse)(ctx, next);
      else await next();
    },
    {
      INVALID_REQUEST: 'The body does not decode as its `Content-Encoding` says.',
      ...errors,
      PAYLOAD_TOO_LARGE: 'The body is larger than `server.maxBodyBytes`, once inflated.',
      UNSUPPORTED_MEDIA_TYPE: `A body of another type than ${types.join(' or ')}, or in another Content-Encoding than gzip, deflate or br.`,
    },
  );
}

/** Content codings are case-insensitive, and `x-gzip` is gzip (RFC 9110 §8.4.1); the inflater knows only the lower-case names. */
function normalizeContentEncoding(ctx: Context): void {
  const encoding = ctx.req.headers['content-encoding'];
  if (encoding === undefined) return;
  const name = encoding.trim().toLowerCase();
  ctx.req.headers['content-encoding'] = name === 'x-gzip' ? 'gzip' : name;
}

/** An empty body (Content-Length: 0) is no body, whatever its declared type. */
function carriesBody(ctx: Context): boolean {
  if (ctx.get('Transfer-Encoding') !== '') return true;
  const length = Number.parseInt(ctx.get('Content-Length'), 10);
  return Number.isFinite(length) && length > 0;
}

/** Whether a request has a body as type-is (and so koa-body) decides it: any Transfer-Encoding, or a numeric Content-Length, even 0. */
function hasBody(ctx: Context): boolean {
  const { headers } = ctx.req;
  return headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(headers['content-length']));
}

/** The XML media types `/samlValidate` reads; SOAP 1.1 sends text/xml. */
export const XML_BODY_TYPES: readonly string[] = ['text/xml', 'application/xml'];

/**
 * The one deliberate exception to `readBody`, for the SAML 1.1 validation route only: an XML body up to
 * `maxBodyBytes` (413 beyond) is read as text into `ctx.request.body`; any other body type is refused (415).
 */
export function readXmlBody(maxBodyBytes: number): Step {
  const text = (types: readonly string[]) => bodyParser({ text: true, textTypes: [...types], textLimit: maxBodyBytes });
  return bodyOf(XML_BODY_TYPES, text(XML_BODY_TYPES), Object.fromEntries(XML_BODY_TYPES.map((type) => [type, text([type])])), {});
}
