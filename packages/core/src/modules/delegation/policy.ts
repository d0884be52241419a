import { serviceDataKey } from '../../domain/registry/service-data.js';

/**
 * A service's `accessStrategy.delegatedAuthenticationPolicy`, as Apereo CAS writes it
 * (DefaultRegisteredServiceDelegatedAuthenticationPolicy): which upstream providers its users may log
 * in through. `allowedProviders` empty with `permitUndefined` (Apereo's default) allows every
 * provider; empty without it allows none. `exclusive`: the allowed providers are the only way in, and
 * a single one is gone to at once.
 */
export type DelegatedAuthenticationPolicy = {
  readonly allowedProviders: readonly string[];
  readonly permitUndefined: boolean;
  readonly exclusive: boolean;
};

/** The delegation module's data on a service: its delegated-authentication policy. */
export const DELEGATION_POLICY = serviceDataKey<DelegatedAuthenticationPolicy>('delegationPolicy');

/** Apereo's defaults: every provider, not exclusively. */
export const DEFAULT_DELEGATION_POLICY: DelegatedAuthenticationPolicy = { allowedProviders: [], permitUndefined: true, exclusive: false };

/**
 * The ids among `providers` (in their configured order) a service with this policy allows; every one
 * without a policy (no service, or none written). An allowed id no provider has is left out.
 */
export function allowedProviderIds(providers: readonly string[], policy: DelegatedAuthenticationPolicy | undefined): string[] {
  const { allowedProviders, permitUndefined } = policy ?? DEFAULT_DELEGATION_POLICY;
  if (allowedProviders.length === 0) return permitUndefined ? [...providers] : [];
  return providers.filter((id) => allowedProviders.includes(id));
}

/** Whether a service with this policy lets a login through `provider` in (Apereo's isProviderAllowed). */
export function providerAllowed(policy: DelegatedAuthenticationPolicy, provider: string): boolean {
  return policy.allowedProviders.length === 0 ? policy.permitUndefined : policy.allowedProviders.includes(provider);
}

/**
 * Whether its upstream providers are the only way into a service with this policy (Apereo's
 * isProviderRequired): `exclusive`, with providers named or none permitted. No password form then.
 */
export function providerRequired(policy: DelegatedAuthenticationPolicy): boolean {
  return policy.exclusive && (policy.allowedProviders.length > 0 || !policy.permitUndefined);
}
