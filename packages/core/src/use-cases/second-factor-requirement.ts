import type { Authentication } from '../domain/authentication/authentication.js';
import { asksSecondFactor } from '../domain/registry/multifactor-policy.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import type { SecondFactorProvider } from '../ports/second-factor.js';

/**
 * What a service's `multifactorPolicy` asks of a login, answered by the second factor a module
 * provides; without one, nobody has the factor and nobody proves it.
 */
export class SecondFactorRequirement {
  constructor(private readonly provider?: SecondFactorProvider) {}

  /** Whether this login must still prove the second factor before it gets a ticket for `service`. */
  lacks(service: RegisteredService | undefined, authentication: Authentication): boolean {
    return asksSecondFactor(service?.multifactorPolicy, authentication.principal.attributes) && !(this.provider?.proved(authentication) ?? false);
  }

  /** Whether this user has the factor set up. */
  async available(username: string): Promise<boolean> {
    return (await this.provider?.available(username)) ?? false;
  }
}
