import type { Authentication } from '../domain/authentication/authentication.js';
import type { Credential } from '../domain/authentication/credential.js';
import type { TesseraError } from '../domain/errors.js';
import type { RequestOrigin, ServiceAccessRefusal } from '../domain/events.js';
import type { EventSink } from '../ports/event-sink.js';
import type { Authenticator } from './authenticator.js';
import type { RelyingPartyAccess } from './relying-party-access.js';

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
    private readonly access: RelyingPartyAccess,
    private readonly events: EventSink,
  ) {}

  async execute(input: AuthenticateUserInput): Promise<AuthenticationResult> {
    const { service: url, origin } = input;
    const authentication = await this.authenticator.authenticate(input.credentials, origin);
    if (url !== undefined) {
      const principal = authentication.principal;
      // The trail shows the credentials were good; this says why the answer was still no.
      const refuse = (reason: ServiceAccessRefusal, error: TesseraError): never => {
        this.events.emit({ type: 'authentication.refused', principal: principal.id, service: url, reason }, origin);
        throw error;
      };
      this.access.requirePrincipal(await this.access.require(url, refuse, origin), principal, refuse);
    }
    return { authentication, service: url ?? null };
  }
}
