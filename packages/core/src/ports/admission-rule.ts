import type { Authentication } from '../domain/authentication/authentication.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';

/**
 * A module's rule over which logins may reach a service, beside its access strategy's own (the
 * delegation module's `delegatedAuthenticationPolicy`: a service its users reach only through certain
 * upstream providers). The relying-party path asks every rule on single sign-on (a login a rule
 * refuses shows the login page instead), on admission (no ticket) and on validation (the ticket fails).
 */
export interface AdmissionRule {
  /** Whether a login proved this way may reach the service. */
  allows(service: RegisteredService, authentication: Authentication): boolean;
}
