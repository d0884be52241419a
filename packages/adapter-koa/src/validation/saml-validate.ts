import type Router from '@koa/router';
import { MethodNotAllowedError, TicketValidationError, type CredentialType } from '@tessera/core';
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { HttpContext } from '../http-module.js';
import { isTruthy } from '../request/flags.js';
import { optionalParameter, queryParameters } from '../request/parameters.js';
import { readXmlBody } from '../request/read-body.js';
import { requestOrigin } from '../request/request-origin.js';
import { requestUrl } from '../request/request-url.js';
import { parseSamlValidationRequest, type SamlValidationRequest } from './saml-request.js';
import { samlFailureXml, samlSuccessXml, type SamlResponseHeader } from './saml-xml.js';
import { renderValidationFailures } from './validation-failures.js';
import type { ValidationFailure } from './validation-views.js';

/** SAML 1.1 authentication method identifiers (SAML 1.1 core §7.1) by credential type; others are unspecified. */
const AUTHENTICATION_METHODS: Readonly<Record<string, string>> = {
  usernamePassword: 'urn:oasis:names:tc:SAML:1.0:am:password',
};
const UNSPECIFIED_METHOD = 'urn:oasis:names:tc:SAML:1.0:am:unspecified';
const SOAP_TYPE = 'text/xml; charset=utf-8';

/** The request read by `readSamlRequest`, kept so even a failure answers `InResponseTo` it. */
const readRequests = new WeakMap<Context, SamlValidationRequest>();

/**
 * POST /samlValidate?TARGET=<service> (Apereo CAS protocol §4): a SOAP 1.1 envelope whose SAML 1.1
 * `samlp:Request` carries the ST as `samlp:AssertionArtifact`. The ST is validated (and consumed) by the
 * same use case as every CAS endpoint; the answer is a SAML 1.1 `samlp:Response` in a SOAP envelope.
 * Every method is routed here so that even a wrong one gets a SAML document.
 */
export function registerSamlValidateRoute(router: Router, http: HttpContext): void {
  const view = { failure: (ctx: Context, failure: ValidationFailure) => writeFailure(ctx, http, failure) };
  router.all('/samlValidate', renderValidationFailures(http.options, http.events, view), http.limitRequestRate, onlyPost, readXmlBody(http.options.maxBodyBytes), readSamlRequest, validateArtifact(http));
}

async function onlyPost(ctx: Context, next: Next): Promise<void> {
  if (ctx.method !== 'POST') throw new MethodNotAllowedError(['POST']);
  await next();
}

async function readSamlRequest(ctx: Context, next: Next): Promise<void> {
  readRequests.set(ctx, parseSamlValidationRequest(ctx.request.body));
  await next();
}

function validateArtifact(http: HttpContext) {
  return async function validateArtifact(ctx: Context): Promise<void> {
    const request = readRequests.get(ctx)!;
    const query = queryParameters(ctx);
    const target = optionalParameter(query, 'TARGET');
    if (target === undefined) throw new TicketValidationError('INVALID_REQUEST', "The 'TARGET' parameter is required");
    const result = await http.core.validateServiceTicket.execute({ ticket: request.artifact, service: target, renew: isTruthy(query.get('renew')), origin: requestOrigin(ctx) });
    ctx.status = 200;
    ctx.set('Content-Type', SOAP_TYPE);
    ctx.body = samlSuccessXml(header(ctx, http), {
      assertionId: newSamlId(),
      // The host name the client reached us by (its own address for a client without Host), as CAS's default issuer.
      issuer: new URL(requestUrl(ctx)).hostname,
      audience: target,
      user: result.user,
      attributes: result.attributes,
      authenticationMethod: authenticationMethod(result.credentialTypes),
      authenticatedAt: result.authenticatedAt,
    });
  };
}

function writeFailure(ctx: Context, http: HttpContext, { code, description }: ValidationFailure): void {
  ctx.set('Content-Type', SOAP_TYPE);
  ctx.body = samlFailureXml(header(ctx, http), code, description);
}

function header(ctx: Context, http: HttpContext): SamlResponseHeader {
  return { responseId: newSamlId(), inResponseTo: readRequests.get(ctx)?.requestId, issuedAt: http.core.clock.now() };
}

function authenticationMethod(types: readonly CredentialType[]): string {
  const first = types[0];
  return (first !== undefined && AUTHENTICATION_METHODS[first]) || UNSPECIFIED_METHOD;
}

/** SAML ids are xsd:ID values: an NCName, so never starting with a digit. */
function newSamlId(): string {
  return `_${randomUUID().replaceAll('-', '')}`;
}
