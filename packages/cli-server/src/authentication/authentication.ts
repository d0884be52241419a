import { usernamePasswordExtractor } from '@tessera/adapter-koa';
import type { Binder } from '../di.js';
import { KEYS } from '../keys.js';
import { authenticationSchema } from './authentication-config.js';
import { ldapProblems, ldapSchema } from './ldap-config.js';
import { registerPasswordHandlers, type AuthenticationSettings } from './password-handlers.js';

/**
 * Authentication is central, not any module's (docs/architecture.md §8): every entry point that takes
 * credentials (REST, the login form, service registration) checks a username and password through
 * the same handlers, whichever modules are on. Its settings are two central sections.
 */
export const authenticationSections = {
  authentication: authenticationSchema.prefault({}),
  ldap: ldapSchema.prefault({}),
};

/** What the central authentication checks across its settings: `ldap.*` is required only of a deployment that lists the ldap handler. */
export function authenticationProblems({ authentication, ldap }: AuthenticationSettings): { path: string[]; message: string }[] {
  if (!authentication.handlers.includes('ldap')) return [];
  return ldapProblems(ldap).map(({ path, message }) => ({ path: ['ldap', path], message }));
}

/**
 * The username + password extractor and the handlers of `authentication.handlers`, in that order:
 * bound before any module's, so they run and are tried first.
 */
export function registerAuthentication(binder: Binder, settings: AuthenticationSettings): void {
  binder.constant(KEYS.CredentialExtractor, usernamePasswordExtractor);
  registerPasswordHandlers(binder, settings);
}
