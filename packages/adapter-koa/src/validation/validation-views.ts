import type { CasFailureCode, ValidatedServiceTicket } from '@tessera/core';
import type { Context } from 'koa';
import { queryParameters } from '../request/parameters.js';
import { casFailureXml, casSuccessXml } from './cas-xml.js';

export interface ValidationFailure {
  readonly code: CasFailureCode;
  readonly description: string;
}

/** How one family of validation endpoints writes its answer; the status is set by the caller. */
export interface ValidationView {
  success(ctx: Context, result: ValidatedServiceTicket): void;
  failure(ctx: Context, failure: ValidationFailure): void;
}

const XML_TYPE = 'application/xml; charset=utf-8';

/** CAS 2 and 3: XML unless the query asks `format=JSON` (any case); the Accept header never decides. */
export const casView: ValidationView = {
  success(ctx, { user, attributes }) {
    if (wantsJson(ctx)) ctx.body = { serviceResponse: { authenticationSuccess: { user, attributes } } };
    else writeXml(ctx, casSuccessXml(user, attributes));
  },
  failure(ctx, { code, description }) {
    if (wantsJson(ctx)) ctx.body = { serviceResponse: { authenticationFailure: { code, description } } };
    else writeXml(ctx, casFailureXml(code, description));
  },
};

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
};

function wantsJson(ctx: Context): boolean {
  return queryParameters(ctx).get('format')?.trim().toUpperCase() === 'JSON';
}

function writeXml(ctx: Context, xml: string): void {
  ctx.set('Content-Type', XML_TYPE);
  ctx.body = xml;
}
