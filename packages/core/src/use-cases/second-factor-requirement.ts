import type { Authentication } from '../domain/authentication/authentication.js';
import type { AttributeMap } from '../domain/authentication/principal.js';
import { asksSecondFactor, failsOpen } from '../domain/registry/multifactor-policy.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import type { SecondFactorProvider } from '../ports/second-factor.js';

/**
 * What a service's `multifactorPolicy` asks of a login, answered by the second-factor providers the
 * enabled modules bind, by id. The policy is met by any one of the providers it names; a provider it
 * names that no enabled module brings is one nobody has and no login proves (its failure mode decides).
 * Without providers, nobody has a factor and nobody proves one.
 */
export class SecondFactorRequirement {
  private readonly providers: readonly SecondFactorProvider[];

  constructor(providers: readonly SecondFactorProvider[] = []) {
    const ids = providers.map((provider) => provider.id);
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated !== undefined) throw new Error(`two second-factor providers have the id ${repeated}`);
    this.providers = providers;
  }

  /** The provider of this id, when an enabled module brings it. */
  private provider(id: string): SecondFactorProvider | undefined {
    return this.providers.find((provider) => provider.id === id);
  }

  /** The providers the service's policy names that the enabled modules bring, in the policy's order. */
  named(service: RegisteredService | undefined): SecondFactorProvider[] {
    return (service?.multifactorPolicy?.providers ?? []).flatMap((id) => this.provider(id) ?? []);
  }

  /**
   * Whether this login must still prove a second factor before it gets a ticket for `service`: the
   * policy asks one of this principal, and the login proved none of the providers it names.
   */
  lacks(service: RegisteredService | undefined, authentication: Authentication): boolean {
    if (!asksSecondFactor(service?.multifactorPolicy, authentication.principal.attributes)) return false;
    return !this.named(service).some((provider) => provider.proved(authentication));
  }

  /**
   * The providers this login may prove the lacking factor with: those the service's policy names that
   * the user has set up, in the policy's order (the user chooses one when there are several); none
   * when nothing lacks, or when the user has none of them.
   */
  async choices(service: RegisteredService | undefined, authentication: Authentication): Promise<SecondFactorProvider[]> {
    if (!this.lacks(service, authentication)) return [];
    const named = this.named(service);
    const available = await Promise.all(named.map((provider) => provider.available(authentication.principal.id)));
    return named.filter((_, index) => available[index]);
  }

  /**
   * Whether this login may register the factor of provider `id` now (self-registration, as Apereo's
   * device registration after the password): the service's policy names it among the factors this
   * login lacks, the user has no factor at all (of any provider, not only those the policy names: a
   * password alone must never add a factor beside one the user has, which would then pass every
   * service accepting either), and its failure mode would refuse the user without one (an OPEN,
   * PHANTOM or NONE policy lets the user through instead, as before).
   */
  async mayRegister(id: string, service: RegisteredService | undefined, authentication: Authentication): Promise<boolean> {
    const policy = service?.multifactorPolicy;
    if (policy === undefined || failsOpen(policy) || !this.lacks(service, authentication)) return false;
    if (!this.named(service).some((provider) => provider.id === id)) return false;
    const available = await Promise.all(this.providers.map((provider) => provider.available(authentication.principal.id)));
    return !available.includes(true);
  }

  /**
   * The authentication attribute that tells a service which second factor the login proved, named as
   * CAS names it (`authnContextClass`, the provider's id; every one it proved, in the order the
   * providers are bound), released with the other authentication attributes; nothing for a login
   * without one.
   */
  contextClass(authentication: Authentication): AttributeMap {
    const proved = this.providers.filter((provider) => provider.proved(authentication)).map((provider) => provider.id);
    return proved.length === 0 ? {} : { authnContextClass: proved };
  }
}
