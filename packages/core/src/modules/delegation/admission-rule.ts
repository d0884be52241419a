import type { Authentication } from '../../domain/authentication/authentication.js';
import type { RegisteredService } from '../../domain/registry/registered-service.js';
import type { AdmissionRule } from '../../ports/admission-rule.js';
import { DELEGATED_CREDENTIAL_TYPE } from './credential.js';
import { DELEGATED_PROVIDER_ATTRIBUTE } from './delegated-login.js';
import { DELEGATION_POLICY, providerAllowed, providerRequired } from './policy.js';

/**
 * A service's `delegatedAuthenticationPolicy` over the logins that reach it, as Apereo CAS enforces it
 * (its delegated single sign-on participation strategy and service-ticket validation authorizer): a
 * login through an upstream provider reaches the service only when its policy allows that provider;
 * a login made another way (a password) only when the policy does not make its providers the only way
 * in (`exclusive` with providers named, or none permitted). Refused on single sign-on, the user sees
 * the login page with the service's buttons.
 */
export class DelegatedAuthenticationRule implements AdmissionRule {
  allows(service: RegisteredService, authentication: Authentication): boolean {
    const policy = DELEGATION_POLICY.of(service);
    if (policy === undefined) return true;
    const provider = delegatedProviderOf(authentication);
    return provider === undefined ? !providerRequired(policy) : providerAllowed(policy, provider);
  }
}

/** The upstream provider a login came through: named by the principal only when the login gave a delegated proof. */
function delegatedProviderOf(authentication: Authentication): string | undefined {
  if (!authentication.credentials.some(({ type }) => type === DELEGATED_CREDENTIAL_TYPE)) return undefined;
  return authentication.principal.attributes[DELEGATED_PROVIDER_ATTRIBUTE]?.[0];
}
