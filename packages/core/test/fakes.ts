import {
  AuthenticationFailedError,
  type Credential,
  type CredentialHandler,
  type Principal,
  type RegisteredService,
} from '@tessera/core';

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
    const user = this.users[credential.username];
    if (!user || credential.type !== 'usernamePassword' || user.password !== credential.password) return Promise.reject(new AuthenticationFailedError([`${this.name} refused`]));
    return Promise.resolve({ id: credential.username, attributes: user.attributes ?? {} });
  }
}

export function password(username: string, secret: string): Credential {
  return { type: 'usernamePassword', username, password: secret };
}

export function service(overrides: Partial<RegisteredService> = {}): RegisteredService {
  return {
    id: 1,
    type: 'org.apereo.cas.services.CasRegisteredService',
    name: 'app',
    serviceId: '^https://app\\.example\\.org/.*',
    evaluationOrder: 0,
    accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {} },
    attributeRelease: { kind: 'all' },
    properties: {},
    ...overrides,
  };
}

export { FixedClock, ListServiceRegistry, MapTicketStore, RecordingEvents } from '@tessera/testkit';
