import type { Principal } from '../domain/authentication/principal.js';
import { AuthenticationFailedError, ServiceNotAuthorizedError, type TesseraError } from '../domain/errors.js';
import type { RequestOrigin, ServiceAccessRefusal } from '../domain/events.js';
import type { AccessContext } from '../domain/registry/access-rules.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import { firstMatchingService, principalMeetsRequirements, selectService } from '../domain/registry/service-matcher.js';
import type { Clock } from '../ports/clock.js';
import type { ServiceRegistry } from '../ports/service-registry.js';

const SERVICE_ACCESS_DENIED = 'Service access denied due to missing privileges.';

/**
 * How a use case says no: it reports the refusal with its reason (the audit trail needs who was
 * refused what, which only the use case knows), then throws `error`, which the caller answers with.
 */
export type Refuse<Reason extends string> = (reason: Reason, error: TesseraError) => never;

/** Finds the registered service for a URL and applies its access strategy (docs/protocol.md §4). */
export class ServiceAccess {
  constructor(
    private readonly registry: ServiceRegistry,
    private readonly clock: Clock,
  ) {}

  /**
   * The first definition matching the URL, in evaluation order, that has not expired and whose access
   * strategy lets it be used now by the request's client (`origin`; without one, no client matches
   * the rules of an HTTP request strategy).
   */
  async find(url: string, origin?: RequestOrigin): Promise<RegisteredService | undefined> {
    return selectService(await this.registry.list(), url, this.context(origin));
  }

  /**
   * As find, but an unregistered or refused service is refused (403). The error carries the
   * `unauthorizedRedirectUrl` of the definition that refused it, for the login pages.
   */
  async require(url: string, refuse: Refuse<ServiceAccessRefusal>, origin?: RequestOrigin): Promise<RegisteredService> {
    const services = await this.registry.list();
    const context = this.context(origin);
    const found = selectService(services, url, context);
    if (found) return found;
    // CAS takes the first definition that matches, refused or not, and redirects to its URL.
    const redirect = firstMatchingService(services, url, context.now)?.accessStrategy.unauthorizedRedirectUrl;
    return refuse('SERVICE_NOT_AUTHORIZED', new ServiceNotAuthorizedError(redirect));
  }

  /** The principal must hold the service's required attributes (401). */
  requirePrincipal(service: RegisteredService, principal: Principal, refuse: Refuse<ServiceAccessRefusal>): void {
    if (!principalMeetsRequirements(service, principal)) refuse('PRINCIPAL_NOT_ALLOWED', new AuthenticationFailedError([SERVICE_ACCESS_DENIED]));
  }

  private context(origin: RequestOrigin | undefined): AccessContext {
    return { now: this.clock.now(), client: origin === undefined ? {} : { address: origin.clientAddress, ...(origin.userAgent !== undefined && { userAgent: origin.userAgent }) } };
  }
}
