import type { Context } from 'koa';
import { z } from 'zod';
import { CAS_CLOSE, CAS_OPEN } from '../../validation/cas-xml.js';
import type { ValidationFailure } from '../../validation/validation-views.js';
import { wantsJson, writeXml } from '../../validation/validation-views.js';
import { xmlAttribute, xmlText } from '../../validation/xml-text.js';

const proxyXmlSchema = z.string().meta({
  id: 'CasProxyResponseXml',
  description: 'A `cas:serviceResponse` document (namespace http://www.yale.edu/tp/cas) holding `cas:proxySuccess` (`cas:proxyTicket`) or `cas:proxyFailure code="…"`.',
});
const proxyJsonSuccess = z.object({ serviceResponse: z.object({ proxySuccess: z.object({ proxyTicket: z.string() }) }) }).meta({ id: 'CasProxySuccess' });
const proxyJsonFailure = z
  .object({
    serviceResponse: z.object({
      proxyFailure: z.object({ code: z.string().meta({ description: 'INVALID_REQUEST, INVALID_TICKET, UNAUTHORIZED_SERVICE or INTERNAL_ERROR.' }), description: z.string() }),
    }),
  })
  .meta({ id: 'CasProxyFailure' });

/** /proxy's answers (CAS protocol 3.0 §2.7.2): XML unless the query asks `format=JSON`, as the validation endpoints. */
export const proxyView = {
  success(ctx: Context, proxyTicket: string): void {
    if (wantsJson(ctx)) ctx.body = { serviceResponse: { proxySuccess: { proxyTicket } } } satisfies z.input<typeof proxyJsonSuccess>;
    else writeXml(ctx, [CAS_OPEN, '  <cas:proxySuccess>', `    <cas:proxyTicket>${xmlText(proxyTicket)}</cas:proxyTicket>`, '  </cas:proxySuccess>', CAS_CLOSE, ''].join('\n'));
  },
  failure(ctx: Context, { code, description }: ValidationFailure): void {
    if (wantsJson(ctx)) ctx.body = { serviceResponse: { proxyFailure: { code, description } } } satisfies z.input<typeof proxyJsonFailure>;
    else writeXml(ctx, [CAS_OPEN, `  <cas:proxyFailure code="${xmlAttribute(code)}">${xmlText(description)}</cas:proxyFailure>`, CAS_CLOSE, ''].join('\n'));
  },
  successContent: { 'application/xml': proxyXmlSchema, 'application/json': proxyJsonSuccess },
  failureContent: { 'application/xml': proxyXmlSchema, 'application/json': proxyJsonFailure },
};
