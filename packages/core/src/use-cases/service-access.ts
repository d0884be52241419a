import type { Principal } from '../domain/authentication/principal.js';
import { AuthenticationFailedError, ServiceNotAuthorizedError, type TesseraError } from '../domain/errors.js';
import type { ServiceAccessRefusal } from '../domain/events.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import { principalMeetsRequirements, selectService } from '../domain/registry/service-matcher.js';
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

  /** The first enabled definition matching the URL, in evaluation order, that has not expired. */
  async find(url: string): Promise<RegisteredService | undefined> {
    return selectService(await this.registry.list(), url, this.clock.now());
  }

  /** As find, but an unregistered or disabled service is refused (403). */
  async require(url: string, refuse: Refuse<ServiceAccessRefusal>): Promise<RegisteredService> {
    return (await this.find(url)) ?? refuse('SERVICE_NOT_AUTHORIZED', new ServiceNotAuthorizedError());
  }

  /** The principal must hold the service's required attributes (401). */
  requirePrincipal(service: RegisteredService, principal: Principal, refuse: Refuse<ServiceAccessRefusal>): void {
    if (!principalMeetsRequirements(service, principal)) refuse('PRINCIPAL_NOT_ALLOWED', new AuthenticationFailedError([SERVICE_ACCESS_DENIED]));
  }
}
