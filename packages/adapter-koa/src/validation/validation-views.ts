import type { CasFailureCode, ValidatedServiceTicket } from '@tessera/core';
import type { Context } from 'koa';
import { z } from 'zod';
import { inputOf } from '../routes/route-input.js';
import { casFailureXml, casSuccessXml } from './cas-xml.js';

export interface ValidationFailure {
  readonly code: CasFailureCode;
  readonly description: string;
}

/** The optional parts of a CAS success that validation extensions fill. */
export interface ValidationAnswerExtras {
  /** The IOU of the PGT delivered to the pgtUrl (docs/protocol.md §13.1). */
  readonly proxyGrantingTicket?: string;
}

/** A successful validation as answered. */
export interface ValidationAnswer extends ValidatedServiceTicket, ValidationAnswerExtras {}

/** How one family of validation endpoints writes its answer (the status is set by the caller), and its bodies for the document. */
export interface ValidationView {
  success(ctx: Context, answer: ValidationAnswer): void;
  failure(ctx: Context, failure: ValidationFailure): void;
  readonly successContent: Readonly<Record<string, z.ZodType>>;
  readonly failureContent: Readonly<Record<string, z.ZodType>>;
}

const XML_TYPE = 'application/xml; charset=utf-8';

const casXmlSchema = z.string().meta({
  id: 'CasServiceResponseXml',
  description:
    'A `cas:serviceResponse` document (namespace http://www.yale.edu/tp/cas) holding `cas:authenticationSuccess` (`cas:user`, `cas:attributes`, with the proxy module `cas:proxyGrantingTicket` and `cas:proxies`) or `cas:authenticationFailure code="…"`.',
});
const attributes = z.record(z.string(), z.array(z.string()).readonly());
const casJsonSuccess = z
  .object({
    serviceResponse: z.object({
      authenticationSuccess: z.object({
        user: z.string(),
        attributes,
        proxyGrantingTicket: z.string().optional().meta({ description: 'The IOU of the PGT delivered to the pgtUrl (proxy module).' }),
        proxies: z.array(z.string()).readonly().optional().meta({ description: 'The proxy callback URLs a PT passed through, most recent first.' }),
      }),
    }),
  })
  .meta({ id: 'CasAuthenticationSuccess' });
const casJsonFailure = z
  .object({ serviceResponse: z.object({ authenticationFailure: z.object({ code: z.string().meta({ description: 'INVALID_REQUEST, INVALID_TICKET, INVALID_SERVICE, UNAUTHORIZED_SERVICE or INTERNAL_ERROR.' }), description: z.string() }) }) })
  .meta({ id: 'CasAuthenticationFailure' });

/** CAS 2 and 3: XML unless the query asks `format=JSON` (any case); the Accept header never decides. */
export const casView: ValidationView = {
  success(ctx, { user, attributes, proxyGrantingTicket, proxies }) {
    const proxy = { ...(proxyGrantingTicket !== undefined && { proxyGrantingTicket }), ...(proxies.length > 0 && { proxies }) };
    if (wantsJson(ctx)) ctx.body = { serviceResponse: { authenticationSuccess: { user, attributes, ...proxy } } } satisfies z.input<typeof casJsonSuccess>;
    else writeXml(ctx, casSuccessXml(user, attributes, proxy));
  },
  failure(ctx, { code, description }) {
    if (wantsJson(ctx)) ctx.body = { serviceResponse: { authenticationFailure: { code, description } } } satisfies z.input<typeof casJsonFailure>;
    else writeXml(ctx, casFailureXml(code, description));
  },
  successContent: { 'application/xml': casXmlSchema, 'application/json': casJsonSuccess },
  failureContent: { 'application/xml': casXmlSchema, 'application/json': casJsonFailure },
};

const cas1Schema = z.string().meta({ id: 'Cas1Answer', description: 'Two lines: `yes` and the user, or `no` and an empty line.' });

/** CAS 1 `/validate`: two lines of plain text. */
export const cas1View: ValidationView = {
  success(ctx, { user }) {
    ctx.type = 'text/plain';
    ctx.body = `yes\n${user}\n`;
  },
  failure(ctx) {
    ctx.type = 'text/plain';
    ctx.body = 'no\n\n';
  },
  successContent: { 'text/plain': cas1Schema },
  failureContent: { 'text/plain': cas1Schema },
};

/** CAS's `format` parameter: `JSON` in any case asks for JSON; anything else, or nothing, for XML. */
export function responseFormat(value: string | undefined): 'JSON' | 'XML' {
  return value?.trim().toUpperCase() === 'JSON' ? 'JSON' : 'XML';
}

/** Whether the route's `format` query parameter asked for JSON. */
export function wantsJson(ctx: Context): boolean {
  try {
    return inputOf(ctx).query['format'] === 'JSON';
  } catch {
    // The query failed its schema (a service URL too long): the failure still answers in the format asked for.
    return responseFormat(new URLSearchParams(ctx.querystring).get('format') ?? undefined) === 'JSON';
  }
}

export function writeXml(ctx: Context, xml: string): void {
  ctx.set('Content-Type', XML_TYPE);
  ctx.body = xml;
}
