import type { AttributeMap } from '../domain/authentication/principal.js';
import { UnknownServicePolicyError } from '../domain/errors.js';
import type { ServicePolicy } from '../domain/registry/registered-service.js';
import type { AttributeReleasePolicy, PolicyResolver, ReleaseRequest, UsernameProvider, UsernameRequest } from '../ports/service-policies.js';
import { DEFAULT_USERNAME_PROVIDER } from './built-in-policies.js';

/** Every registration the server has, each for its own class. */
export interface ServicePolicyRegistrations {
  readonly releasePolicies: readonly AttributeReleasePolicy[];
  readonly usernameProviders: readonly UsernameProvider[];
}

const RELEASE_POLICY = 'an attribute release policy';
const USERNAME_PROVIDER = 'a username provider';

/**
 * The registry of service policies: resolves each policy a service holds as data to the registration
 * of its class. The only reader of a service's `attributeRelease` and `usernameProvider`: every place
 * that tells a service about its user (validation answers, JWT service tickets) asks it.
 */
export class ServicePolicies implements PolicyResolver {
  private readonly releasePolicies: ReadonlyMap<string, AttributeReleasePolicy>;
  private readonly usernameProviders: ReadonlyMap<string, UsernameProvider>;

  constructor({ releasePolicies, usernameProviders }: ServicePolicyRegistrations) {
    this.releasePolicies = byType(releasePolicies, RELEASE_POLICY);
    this.usernameProviders = byType(usernameProviders, USERNAME_PROVIDER);
  }

  /** What the service receives, by its own release policy. */
  releasedAttributes(request: ReleaseRequest): Promise<AttributeMap> {
    return this.release(request.service.attributeRelease, request);
  }

  /** The user name the service sees, by its own provider (the principal id without one). */
  usernameFor(request: UsernameRequest): Promise<string> {
    return this.username(request.service.usernameProvider ?? DEFAULT_USERNAME_PROVIDER, request);
  }

  // Async, so an unknown class is a rejection like any other failure of a policy.
  async release(policy: ServicePolicy, request: ReleaseRequest): Promise<AttributeMap> {
    return await this.releasePolicy(policy.type).release(policy, request, this);
  }

  async username(provider: ServicePolicy, request: UsernameRequest): Promise<string> {
    return await this.usernameProvider(provider.type).username(provider, request, this);
  }

  /** The registration of a release policy class; UnknownServicePolicyError, naming the known ones, for any other. */
  releasePolicy(type: string): AttributeReleasePolicy {
    const found = this.releasePolicies.get(type);
    if (!found) throw new UnknownServicePolicyError(RELEASE_POLICY, type, [...this.releasePolicies.keys()]);
    return found;
  }

  /** The registration of a username provider class; UnknownServicePolicyError, naming the known ones, for any other. */
  usernameProvider(type: string): UsernameProvider {
    const found = this.usernameProviders.get(type);
    if (!found) throw new UnknownServicePolicyError(USERNAME_PROVIDER, type, [...this.usernameProviders.keys()]);
    return found;
  }
}

/** One registration per class: a second for the same class is a composition mistake, refused at once. */
function byType<R extends { readonly type: string }>(registrations: readonly R[], kind: string): ReadonlyMap<string, R> {
  const map = new Map<string, R>();
  for (const registration of registrations) {
    if (map.has(registration.type)) throw new Error(`${registration.type} is registered twice as ${kind}`);
    map.set(registration.type, registration);
  }
  return map;
}
