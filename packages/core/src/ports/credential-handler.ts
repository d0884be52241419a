import type { Credential } from '../domain/authentication/credential.js';
import type { Principal } from '../domain/authentication/principal.js';
import type { RequestOrigin } from '../domain/events.js';

/**
 * Turns one credential into a principal (CAS's authentication handler). Extracting credentials
 * from a request is the web adapter's job; this is the other half.
 */
export interface CredentialHandler {
  /** Shown in authentication results (`successes`), e.g. `config-users`. */
  readonly name: string;

  supports(credential: Credential): boolean;

  /**
   * The principal the credential proves. A credential that does not prove it throws
   * AuthenticationFailedError with a reason safe to show the caller. Infrastructure trouble
   * (directory down) throws anything else, such as StoreUnavailableError: never a 401 that would
   * count as a failed login. `origin` is the request's, for the events the handler reports.
   */
  authenticate(credential: Credential, origin?: RequestOrigin): Promise<Principal>;
}
