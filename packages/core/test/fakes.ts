import {
  AuthenticationFailedError,
  isUsernamePasswordCredential,
  usernamePasswordCredential,
  type Credential,
  type CredentialHandler,
  type Principal,
  type RegisteredService,
  type ServiceDefinition,
} from '@tessera/core';
import { aRegisteredService } from '@tessera/testkit';

/** Accepts username/password pairs from a table. */
export class TableHandler implements CredentialHandler {
  constructor(
    readonly name: string,
    private readonly users: Record<string, { password: string; attributes?: Principal['attributes'] }>,
  ) {}
  supports(credential: Credential): boolean {
    return credential.type === 'usernamePassword';
  }
  authenticate(credential: Credential): Promise<Principal> {
    const user = isUsernamePasswordCredential(credential) ? this.users[credential.username] : undefined;
    if (!user || !isUsernamePasswordCredential(credential) || user.password !== credential.password) return Promise.reject(new AuthenticationFailedError([`${this.name} refused`]));
    return Promise.resolve({ id: credential.username, attributes: user.attributes ?? {} });
  }
}

export function password(username: string, secret: string): Credential {
  return usernamePasswordCredential(username, secret);
}

/** The one app most domain tests use: always id 1, so saving it again replaces it. */
export function service(overrides: Partial<RegisteredService> = {}): RegisteredService {
  return aRegisteredService({ id: 1, name: 'app', ...overrides });
}

/** A definition without an id, as an adapter's codec hands it to the use cases. */
export function definition(overrides: Partial<ServiceDefinition> = {}): ServiceDefinition {
  const { id: _id, ...withoutId } = aRegisteredService();
  return { ...withoutId, ...overrides };
}

export { FixedClock, ListServiceRegistry, MapTicketStore, RecordingEvents } from '@tessera/testkit';
