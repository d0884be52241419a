import { UnsupportedMediaTypeError } from '@tessera/core';
import { koaBody, type KoaBodyMiddlewareOptions } from 'koa-body';
import type { Context, Middleware } from 'koa';
import { bodyReadError } from '../errors/normalize-error.js';
import { withErrors, type RouteErrors, type Step } from '../routes/route.js';

/** The body media types routes read; any other body is refused with 415. */
export const READABLE_BODY_TYPES: readonly string[] = ['application/x-www-form-urlencoded', 'application/json'];

/**
 * The body-reading step of every route: a body of a media type routes do not read is refused (415)
 * before a byte of it is read; JSON bodies up to `maxBodyBytes` are parsed and form bodies read as
 * text (413 beyond, 400 for malformed JSON). A form is decoded once, by the route's input, literally
 * (`a[b]` stays a name, not the nested object koa-body's qs parse would make of it).
 */
export function readBody(maxBodyBytes: number): Step {
  const parse = koaBody({
    ...DECODING,
    json: true,
    jsonStrict: true,
    jsonTypes: ['application/json'],
    urlencoded: false,
    text: true,
    textTypes: ['application/x-www-form-urlencoded'],
    multipart: false,
    includeUnparsed: true,
    jsonLimit: maxBodyBytes,
    textLimit: maxBodyBytes,
  });
  return bodyOf(READABLE_BODY_TYPES, parse, { INVALID_REQUEST: 'The JSON body is malformed, or the body does not decode as its `Content-Encoding` says.' });
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

/**
 * A step reading bodies of `types` only: any other is refused (415) before a byte of it is read,
 * then `parse` (koa-body, with its size limit: 413) reads it.
 */
function bodyOf(types: readonly string[], parse: Middleware, errors: RouteErrors): Step {
  return withErrors(
    async function refuseUnreadableBody(ctx, next) {
      if (carriesBody(ctx) && !ctx.is([...types])) throw new UnsupportedMediaTypeError(`Unsupported request body type; send ${types.join(' or ')}`);
      normalizeContentEncoding(ctx);
      await parse(ctx, next);
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

/** The XML media types `/samlValidate` reads; SOAP 1.1 sends text/xml. */
export const XML_BODY_TYPES: readonly string[] = ['text/xml', 'application/xml'];

/**
 * The one deliberate exception to `readBody`, for the SAML 1.1 validation route only: an XML body up to
 * `maxBodyBytes` (413 beyond) is read as text into `ctx.request.body`; any other body type is refused (415).
 */
export function readXmlBody(maxBodyBytes: number): Step {
  const parse = koaBody({ ...DECODING, json: false, urlencoded: false, text: true, textTypes: [...XML_BODY_TYPES], multipart: false, textLimit: maxBodyBytes });
  return bodyOf(XML_BODY_TYPES, parse, {});
}
