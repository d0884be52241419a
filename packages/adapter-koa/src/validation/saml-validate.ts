import { TicketValidationError, type CredentialType } from '@tessera/core';
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import type { HttpContext } from '../http-module.js';
import { flag, optionalServiceUrl } from '../request/parameter-schemas.js';
import { readXmlBody, XML_BODY_TYPES } from '../request/read-body.js';
import { requestOrigin } from '../request/request-origin.js';
import { publicHostName } from '../request/request-url.js';
import { onlyMethods } from '../routes/only-methods.js';
import { defineRoute, type Route } from '../routes/route.js';
import { parseSamlValidationRequest, type SamlValidationRequest } from './saml-request.js';
import { samlFailureXml, samlSuccessXml, type SamlResponseHeader } from './saml-xml.js';
import { renderValidationFailures, VALIDATION_ERRORS, validationFailures } from './validation-failures.js';
import type { ValidationFailure } from './validation-views.js';

const UNSPECIFIED_METHOD = 'urn:oasis:names:tc:SAML:1.0:am:unspecified';
const SOAP_TYPE = 'text/xml; charset=utf-8';

/** The request read by `readSamlRequest`, kept so even a failure answers `InResponseTo` it. */
/** The request's parsed SOAP envelope, on its context (a WeakMap of contexts would slow every GC). */
const SAML_REQUEST = Symbol('samlRequest');
type SamlState = { [SAML_REQUEST]?: SamlValidationRequest };

const soapSchema = z.string().meta({ id: 'SoapEnvelope', description: 'A SOAP 1.1 envelope (SAML 1.1 SOAP binding).' });
const samlView = { failureContent: { 'text/xml': soapSchema } };

/**
 * POST /samlValidate?TARGET=<service> (Apereo CAS protocol §4): a SOAP 1.1 envelope whose SAML 1.1
 * `samlp:Request` carries the ST as `samlp:AssertionArtifact`. The ST is validated (and consumed) by the
 * same use case as every CAS endpoint; the answer is a SAML 1.1 `samlp:Response` in a SOAP envelope.
 * Every method is routed here so that even a wrong one gets a SAML document.
 */
export function samlValidateRoute(http: HttpContext): Route {
  const view = { failure: (ctx: Context, failure: ValidationFailure) => writeFailure(ctx, http, failure) };
  return defineRoute({
    method: 'post',
    path: '/samlValidate',
    operationId: 'samlValidate',
    summary: 'Validate a service ticket (SAML 1.1)',
    everyMethod: true,
    request: {
      query: z.object({
        TARGET: optionalServiceUrl('The service URL the ticket was granted for.'),
        renew: flag('Succeed only for a ticket from a fresh login.'),
      }),
      body: {
        description: 'A `samlp:Request` whose `samlp:AssertionArtifact` is the service ticket; no DTD.',
        content: Object.fromEntries(XML_BODY_TYPES.map((type) => [type, soapSchema])),
      },
    },
    responses: { 200: { description: 'A `samlp:Response` holding the assertion.', content: samlView.failureContent } },
    errors: { ...VALIDATION_ERRORS, INVALID_REQUEST: 'The body is not a well-formed SAML 1.1 request.' },
    failures: validationFailures(http.options, samlView),
    steps: [renderValidationFailures(http.options, http.events, view), ...http.validationGuards, onlyPost, readXmlBody(http.options.maxBodyBytes), readSamlRequest],
    async handle(ctx, { query }) {
      const request = (ctx.state as SamlState)[SAML_REQUEST]!;
      const target = query.TARGET;
      if (target === undefined) throw new TicketValidationError('INVALID_REQUEST', "The 'TARGET' parameter is required");
      const result = await http.core.validateServiceTicket.execute({ ticket: request.artifact, service: target, renew: query.renew, protocol: 'SAML1', origin: requestOrigin(ctx) });
      ctx.status = 200;
      ctx.set('Content-Type', SOAP_TYPE);
      ctx.body = samlSuccessXml(header(ctx, http), {
        assertionId: newSamlId(),
        // The host name clients reach us by (publicUrl's, else the request's), as CAS's default issuer.
        issuer: publicHostName(ctx, http.options),
        audience: target,
        user: result.user,
        attributes: result.attributes,
        authenticationMethod: authenticationMethod(http.options.samlAuthenticationMethods, result.credentialTypes),
        authenticatedAt: result.authenticatedAt,
      });
    },
  });
}

const onlyPost = onlyMethods('POST');

async function readSamlRequest(ctx: Context, next: Next): Promise<void> {
  (ctx.state as SamlState)[SAML_REQUEST] = parseSamlValidationRequest(ctx.request.body);
  await next();
}

function writeFailure(ctx: Context, http: HttpContext, { code, description }: ValidationFailure): void {
  ctx.set('Content-Type', SOAP_TYPE);
  ctx.body = samlFailureXml(header(ctx, http), code, description);
}

function header(ctx: Context, http: HttpContext): SamlResponseHeader {
  return { responseId: newSamlId(), inResponseTo: (ctx.state as SamlState)[SAML_REQUEST]?.requestId, issuedAt: http.core.clock.now() };
}

function authenticationMethod(methods: Readonly<Record<string, string>>, types: readonly CredentialType[]): string {
  const first = types[0];
  return first !== undefined && Object.hasOwn(methods, first) ? methods[first]! : UNSPECIFIED_METHOD;
}

/** SAML ids are xsd:ID values: an NCName, so never starting with a digit. */
function newSamlId(): string {
  return `_${randomUUID().replaceAll('-', '')}`;
}
