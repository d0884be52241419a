import { z } from 'zod';
import type { HttpContext } from '../http-module.js';
import type { RouteErrors } from '../routes/route.js';
import { mergeShapes } from './credentials.js';
import { optionalServiceUrl, parameterObject } from './parameter-schemas.js';

/** The service URL a login or a ticket is for. */
export const SERVICE = optionalServiceUrl('The service URL; it must be registered and enabled, and the user must meet its access rules.');

const OTHER_PARAMETERS = 'Any other parameter is ignored; with the tokens module, those named in `tokens.requestParameters` are copied into the TGT JWT’s `requestParameters` claim.';

/**
 * The parameters and headers of a route that checks credentials (REST, the login form, ...): every
 * installed extractor's (so an extractor that is off adds none) and the route's own.
 */
export function credentialRequest<Parameters extends z.ZodRawShape, Headers extends z.ZodRawShape = Record<never, never>>(
  http: HttpContext,
  own: { readonly parameters: Parameters; readonly headers?: Headers },
) {
  // Typed by the route's own schemas: the extractors' values are theirs to read (HttpContext.credentials).
  const parameters = mergeShapes([http.credentialSchemas.parameters, own.parameters], 'parameter') as Parameters;
  const headers = mergeShapes([http.credentialSchemas.headers, own.headers ?? {}], 'header') as Headers;
  return { parameters: parameterObject(parameters, OTHER_PARAMETERS), headers: z.object(headers) };
}

/** What checking credentials may answer, on every route that does. */
export const CREDENTIAL_ERRORS: RouteErrors = {
  NO_CREDENTIALS: 'No credential in the request.',
  AUTHENTICATION_FAILED: 'A credential was refused, the credentials name different users, or the user does not meet the service’s access rules.',
  SERVICE_NOT_AUTHORIZED: 'The service is not registered or not enabled.',
};

/** What any route touching the ticket store, the registry or a directory may answer. */
export const STORE_ERRORS: RouteErrors = {
  STORE_UNAVAILABLE: 'A store or directory the server depends on is unavailable; try again later.',
};
