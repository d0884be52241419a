import type { Authentication } from '../domain/authentication/authentication.js';
import type { Credential } from '../domain/authentication/credential.js';
import type { RequestOrigin } from '../domain/events.js';
import type { Authenticator } from './authenticator.js';
import type { ServiceAccess } from './service-access.js';

export interface AuthenticateUserInput {
  readonly credentials: readonly Credential[];
  readonly service?: string;
  /** The request asking, reported with the events. */
  readonly origin?: RequestOrigin;
}

export interface AuthenticationResult {
  readonly authentication: Authentication;
  readonly service: string | null;
}

/** POST /v1/users: check credentials (and optionally the service's access rules) without a ticket. */
export class AuthenticateUser {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly access: ServiceAccess,
  ) {}

  async execute(input: AuthenticateUserInput): Promise<AuthenticationResult> {
    const authentication = await this.authenticator.authenticate(input.credentials, input.origin);
    if (input.service !== undefined) {
      const service = await this.access.require(input.service);
      this.access.requirePrincipal(service, authentication.principal);
    }
    return { authentication, service: input.service ?? null };
  }
}
