/**
 * The one error hierarchy of tessera. Every failure a caller can cause has a stable code; adapters map
 * codes to their transport (adapter-koa holds the only code → HTTP table). Core knows no HTTP status.
 */
export type ErrorCode =
  | 'INVALID_REQUEST'
  | 'NO_CREDENTIALS'
  | 'AUTHENTICATION_FAILED'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'TICKET_NOT_FOUND'
  | 'SERVICE_NOT_AUTHORIZED'
  | 'TICKET_VALIDATION_FAILED'
  | 'INVALID_SERVICE_DEFINITION'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'METHOD_NOT_ALLOWED'
  | 'ROUTE_NOT_FOUND'
  | 'STORE_UNAVAILABLE'
  | 'STORE_CAPACITY_EXCEEDED'
  | 'INVALID_TOKEN'
  | 'THROTTLED'
  | 'RATE_LIMITED'
  | 'INVALID_CONFIGURATION';

/** Failure codes of the CAS validation protocol (CAS protocol 3.0 §2.5.3). */
export type CasFailureCode =
  | 'INVALID_REQUEST'
  | 'INVALID_TICKET'
  | 'INVALID_SERVICE'
  | 'UNAUTHORIZED_SERVICE'
  | 'INTERNAL_ERROR';

export abstract class TesseraError extends Error {
  abstract readonly code: ErrorCode;
  override get name(): string {
    return this.constructor.name;
  }
}

/** A request parameter is missing or malformed. The message names the parameter. */
export class InvalidRequestError extends TesseraError {
  readonly code = 'INVALID_REQUEST';
}

export class NoCredentialsError extends TesseraError {
  readonly code = 'NO_CREDENTIALS';
  constructor() {
    super('No credentials can be extracted to authenticate the request');
  }
}

/** One reason per credential that failed; reasons are safe to show to the caller (no secrets, no class names). */
export class AuthenticationFailedError extends TesseraError {
  readonly code = 'AUTHENTICATION_FAILED';
  constructor(readonly reasons: readonly string[]) {
    super(reasons.join('; ') || 'Authentication failed');
  }
}

/** No credentials that authenticate where an endpoint demands its own (HTTP Basic); never revision-dependent. */
export class UnauthenticatedError extends TesseraError {
  readonly code = 'UNAUTHENTICATED';
  constructor(message = 'Unable to determine or verify authentication attempt') {
    super(message);
  }
}

/** The caller is known but may not do this (register services without the required attribute). */
export class ForbiddenError extends TesseraError {
  readonly code = 'FORBIDDEN';
}

export class TicketNotFoundError extends TesseraError {
  readonly code = 'TICKET_NOT_FOUND';
  constructor() {
    super('Ticket could not be found or is considered invalid');
  }
}

/** The service is not registered, or its definition is disabled or its access strategy refuses the request. */
export class ServiceNotAuthorizedError extends TesseraError {
  readonly code = 'SERVICE_NOT_AUTHORIZED';
  /** @param unauthorizedRedirectUrl the refusing definition's, where the login pages send a browser instead of their error page. */
  constructor(readonly unauthorizedRedirectUrl?: string) {
    super('Service is not registered or not enabled');
  }
}

/** A CAS protocol request (a ticket validation, a proxy ticket request) failed; rendered as a CAS failure document. */
export class TicketValidationError extends TesseraError {
  readonly code = 'TICKET_VALIDATION_FAILED';
  constructor(
    readonly casCode: CasFailureCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ServiceDefinitionProblem {
  /** The key at fault, dotted: `accessStrategy.requiredAttributes`. */
  readonly field: string;
  readonly problem: string;
}

/** A service definition that cannot be used; one line `<field>: <problem>` per problem, the first in `field`. */
export class InvalidServiceDefinitionError extends TesseraError {
  readonly code = 'INVALID_SERVICE_DEFINITION';
  readonly problems: readonly [ServiceDefinitionProblem, ...ServiceDefinitionProblem[]];
  constructor(
    readonly field: string,
    problem: string,
    ...more: readonly ServiceDefinitionProblem[]
  ) {
    const problems = [{ field, problem }, ...more] as const;
    super(problems.map((each) => `${each.field}: ${each.problem}`).join('\n'));
    this.problems = problems;
  }
}

export class UnsupportedMediaTypeError extends TesseraError {
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
}

export class PayloadTooLargeError extends TesseraError {
  readonly code = 'PAYLOAD_TOO_LARGE';
}

export class MethodNotAllowedError extends TesseraError {
  readonly code = 'METHOD_NOT_ALLOWED';
  constructor(readonly allowed: readonly string[]) {
    super('Method not allowed');
  }
}

export class RouteNotFoundError extends TesseraError {
  readonly code = 'ROUTE_NOT_FOUND';
  constructor() {
    super('Not found');
  }
}

/** A backing store cannot be reached; the request may succeed later. */
export class StoreUnavailableError extends TesseraError {
  readonly code = 'STORE_UNAVAILABLE';
}

/** A bounded store refuses new entries rather than grow without limit. */
export class StoreCapacityExceededError extends TesseraError {
  readonly code = 'STORE_CAPACITY_EXCEEDED';
}

/** Bad configuration, found at start. The message names the exact setting. */
export class InvalidConfigurationError extends TesseraError {
  readonly code = 'INVALID_CONFIGURATION';
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`${setting}: ${problem}`);
  }
}

/**
 * A service's policy names a class no registration has (a definition stored by a later version, or for
 * a capability this deployment lacks): the server cannot honour the definition, so nothing is released.
 */
export class UnknownServicePolicyError extends TesseraError {
  readonly code = 'INVALID_CONFIGURATION';
  constructor(
    /** What kind of policy, with its article: `an attribute release policy`, `a username provider`. */
    kind: string,
    readonly type: string,
    known: readonly string[],
  ) {
    super(`${type} is not ${kind} tessera knows (known: ${known.join(', ') || 'none'})`);
  }
}

/**
 * A service holds data under a key no listed module reads (`moduleData`: a definition stored with a
 * module this build lacks): it cannot be written back as a definition without losing what it says.
 */
export class UnknownServiceDataError extends TesseraError {
  readonly code = 'INVALID_CONFIGURATION';
  constructor(
    readonly key: string,
    known: readonly string[],
  ) {
    super(`a service holds data under ${key}, which no module tessera knows reads (known: ${known.join(', ') || 'none'})`);
  }
}

/** A JWT ticket failed verification, decryption or its claim checks. Which check failed is not told. */
export class InvalidTokenError extends TesseraError {
  readonly code = 'INVALID_TOKEN';
  constructor() {
    super('The token is not valid');
  }
}

/** Too many failed authentications for this client and username: refused before any credential is checked. */
export class ThrottledError extends TesseraError {
  readonly code = 'THROTTLED';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many failed attempts. Try again later.');
  }
}

/** A client sent more requests than the configured rate allows. */
export class RateLimitedError extends TesseraError {
  readonly code = 'RATE_LIMITED';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests. Try again later.');
  }
}
