import {
  AuthenticationFailedError,
  isUsernamePasswordCredential,
  type Credential,
  type CredentialHandler,
  type Principal,
  type RegisteredService,
  type ServiceTicket,
  type Ticket,
  type TicketGrantingTicket,
  type TicketStore,
} from '@tessera/core';
import { aRegisteredService } from '@tessera/testkit';

/** A store whose backend is gone: every call fails, by default with a plain Error as a broken driver would. */
export class ExplodingTicketStore implements TicketStore {
  constructor(private readonly reason: unknown = new Error('backend exploded')) {}
  private fail(): Promise<never> {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- drivers may reject with anything
    return Promise.reject(this.reason);
  }
  save = (): Promise<void> => this.fail();
  get = (): Promise<Ticket | undefined> => this.fail();
  consume = (): Promise<ServiceTicket | undefined> => this.fail();
  touch = (): Promise<TicketGrantingTicket | undefined> => this.fail();
  updateAuthentication = (): Promise<TicketGrantingTicket | undefined> => this.fail();
  remove = (): Promise<void> => this.fail();
  removeDescendants = (): Promise<number> => this.fail();
}

export interface FakeUser {
  readonly password: string;
  readonly attributes: Principal['attributes'];
}

/** Accepts username/password pairs from a table; refuses everything else with a safe reason. */
export class FakePasswordHandler implements CredentialHandler {
  readonly name = 'fake-users';
  constructor(private readonly users: Readonly<Record<string, FakeUser>>) {}
  supports(credential: Credential): boolean {
    return credential.type === 'usernamePassword';
  }
  authenticate(credential: Credential): Promise<Principal> {
    if (!isUsernamePasswordCredential(credential)) return Promise.reject(new AuthenticationFailedError(['Authentication failed: invalid credentials.']));
    const user = Object.hasOwn(this.users, credential.username) ? this.users[credential.username] : undefined;
    if (!user || user.password !== credential.password) {
      return Promise.reject(new AuthenticationFailedError(['Authentication failed: invalid credentials.']));
    }
    return Promise.resolve({ id: credential.username, attributes: user.attributes });
  }
}


/** The one app the codec tests use: always id 1. */
export function service(overrides: Partial<RegisteredService> = {}): RegisteredService {
  return aRegisteredService({ id: 1, name: 'app', ...overrides });
}

export { FixedClock, ListServiceRegistry, MapTicketStore, RecordingEvents } from '@tessera/testkit';
