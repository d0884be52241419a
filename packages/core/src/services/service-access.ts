import type { Principal } from '../domain/authentication/principal.js';
import { AuthenticationFailedError, ServiceNotAuthorizedError } from '../domain/errors.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import { principalMeetsRequirements, selectService } from '../domain/registry/service-matcher.js';
import type { ServiceRegistry } from '../ports/service-registry.js';

export const SERVICE_ACCESS_DENIED = 'Service access denied due to missing privileges.';

/** Finds the registered service for a URL and applies its access strategy (protocol.md §4). */
export class ServiceAccess {
  constructor(private readonly registry: ServiceRegistry) {}

  /** The first enabled definition matching the URL, in evaluation order. */
  async find(url: string): Promise<RegisteredService | undefined> {
    return selectService(await this.registry.list(), url);
  }

  /** As find, but an unregistered or disabled service is refused (403). */
  async require(url: string): Promise<RegisteredService> {
    const service = await this.find(url);
    if (!service) throw new ServiceNotAuthorizedError();
    return service;
  }

  /** The principal must hold the service's required attributes (401). */
  requirePrincipal(service: RegisteredService, principal: Principal): void {
    if (!principalMeetsRequirements(service, principal)) throw new AuthenticationFailedError([SERVICE_ACCESS_DENIED]);
  }
}
