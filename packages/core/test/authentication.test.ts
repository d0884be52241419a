import { expect } from 'chai';
import {
  Argon2PasswordHasher,
  DirectoryPasswordHandler,
  AuthenticationFailedError,
  Authenticator,
  INVALID_CREDENTIALS,
  MIXED_PRINCIPALS,
  NoCredentialsError,
  StoreUnavailableError,
  type Authentication,
  usernamePasswordCredential,
  type CredentialHandler,
  type RequestOrigin,
  type UserRecord,
} from '@tessera/core';
import { FixedClock, RecordingEvents, TableHandler, password } from './fakes.js';
import { CountingHasher, ListUserDirectory } from '@tessera/testkit';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
}

describe('authentication (docs/protocol.md §2)', () => {
  const clock = new FixedClock();

  it('every credential must pass; one reason per failed credential, no secrets', async () => {
    const events = new RecordingEvents();
    const authenticator = new Authenticator([new TableHandler('table', { casuser: { password: 'Mellon' } })], clock, events);
    const error = await failure(authenticator.authenticate([password('casuser', 'Mellon'), password('bob', 'hunter2'), password('eve', 'x')]));
    expect(error).to.be.instanceOf(AuthenticationFailedError);
    expect((error as AuthenticationFailedError).reasons).to.deep.equal(['table refused', 'table refused']);
    expect(JSON.stringify(events.events)).to.not.include('hunter2');
    expect(events.ofType('authentication.failed')[0]!.credentialIds).to.deep.equal(['casuser', 'bob', 'eve']);
  });

  it('a failed attempt names every handler asked (the metrics label), each once; none when no handler supports the credential', async () => {
    const events = new RecordingEvents();
    const first = new TableHandler('first', { a: { password: '1' } });
    const second = new TableHandler('second', { b: { password: '2' } });
    await failure(new Authenticator([first, second], clock, events).authenticate([password('a', 'wrong'), password('b', 'wrong')]));
    await failure(new Authenticator([], clock, events).authenticate([password('a', '1')]));
    expect(events.ofType('authentication.failed').map((event) => event.handlers)).to.deep.equal([['first', 'second'], []]);
  });

  it('tells its listeners of each success, with the credentials accepted and the request, before it answers; never of a failure', async () => {
    const told: [string, readonly string[], string | undefined][] = [];
    const listener = {
      authenticated: (authentication: Authentication, origin?: RequestOrigin) => {
        told.push([authentication.principal.id, authentication.credentials.map(({ id }) => id), origin?.requestId]);
        return Promise.resolve();
      },
    };
    const authenticator = new Authenticator([new TableHandler('table', { casuser: { password: 'Mellon' } })], clock, new RecordingEvents(), [], [listener]);
    await failure(authenticator.authenticate([password('casuser', 'wrong')], { clientAddress: '203.0.113.9', requestId: 'r1' }));
    await authenticator.authenticate([password('casuser', 'Mellon')], { clientAddress: '203.0.113.9', requestId: 'r2' });
    expect(told).to.deep.equal([['casuser', ['casuser'], 'r2']]);
    const failing = new Authenticator([new TableHandler('table', { casuser: { password: 'Mellon' } })], clock, new RecordingEvents(), [], [
      { authenticated: () => Promise.reject(new StoreUnavailableError('throttle store')) },
    ]);
    expect(await failure(failing.authenticate([password('casuser', 'Mellon')]))).to.be.instanceOf(StoreUnavailableError);
  });

  it('credentials of different principals fail together', async () => {
    const authenticator = new Authenticator([new TableHandler('t', { a: { password: '1' }, b: { password: '2' } })], clock, new RecordingEvents());
    const error = (await failure(authenticator.authenticate([password('a', '1'), password('b', '2')]))) as AuthenticationFailedError;
    expect(error.reasons).to.deep.equal([MIXED_PRINCIPALS]);
  });

  it('no credentials is its own error (400, not 401)', async () => {
    const authenticator = new Authenticator([], clock, new RecordingEvents());
    expect(await failure(authenticator.authenticate([]))).to.be.instanceOf(NoCredentialsError);
  });

  it('tries handlers in order; the first that accepts wins; records who accepted what', async () => {
    const first = new TableHandler('first', { a: { password: 'old' } });
    const second = new TableHandler('second', { a: { password: 'new', attributes: { role: ['x'] } } });
    const result = await new Authenticator([first, second], clock, new RecordingEvents()).authenticate([password('a', 'new')]);
    expect(result.principal).to.deep.equal({ id: 'a', attributes: { role: ['x'] } });
    expect(result.successes).to.deep.equal({ second: { handlerName: 'second', credentialType: 'usernamePassword', principalId: 'a' } });
    expect(result.credentials).to.deep.equal([{ id: 'a', type: 'usernamePassword' }]);
    expect(result.authenticatedAt).to.equal(clock.now());
  });

  it('an infrastructure failure propagates as itself, never as a failed login', async () => {
    const broken: CredentialHandler = {
      name: 'ldap',
      supports: () => true,
      authenticate: () => Promise.reject(new StoreUnavailableError('directory unreachable')),
    };
    const error = await failure(new Authenticator([broken], clock, new RecordingEvents()).authenticate([password('a', 'b')]));
    expect(error).to.be.instanceOf(StoreUnavailableError);
  });

  describe('directory password handler', () => {
    const users: UserRecord[] = [
      { username: 'hashed', password: { kind: 'hash', phc: 'hashed:pw' }, attributes: { mail: ['h@example.org'] } },
      { username: 'plain', password: { kind: 'plain', value: 'pw' }, attributes: {} },
    ];
    const directory = new ListUserDirectory(users);
    const login = (handler: DirectoryPasswordHandler, username: string, secret: string) =>
      handler.authenticate(usernamePasswordCredential(username, secret));

    it('accepts hashed and plain passwords and returns the attributes', async () => {
      const handler = new DirectoryPasswordHandler('config-users', directory, new CountingHasher());
      expect(await login(handler, 'hashed', 'pw')).to.deep.equal({ id: 'hashed', attributes: { mail: ['h@example.org'] } });
      expect((await login(handler, 'plain', 'pw')).id).to.equal('plain');
    });

    it('unknown user and wrong password fail alike, and both cost a hash verification', async () => {
      const hasher = new CountingHasher();
      const handler = new DirectoryPasswordHandler('config-users', directory, hasher);
      const unknown = (await failure(login(handler, 'nobody', 'pw'))) as AuthenticationFailedError;
      const wrong = (await failure(login(handler, 'hashed', 'nope'))) as AuthenticationFailedError;
      expect(unknown.reasons).to.deep.equal([INVALID_CREDENTIALS]);
      expect(wrong.reasons).to.deep.equal(unknown.reasons);
      expect(hasher.verifications).to.equal(2);
      expect(await failure(login(handler, 'plain', 'PW'))).to.be.instanceOf(AuthenticationFailedError);
      expect(await failure(login(handler, 'Hashed', 'pw'))).to.be.instanceOf(AuthenticationFailedError);
    });
  });

  it('argon2id hashes at the OWASP minimum and verifies; garbage hashes are false, not errors', async () => {
    const hasher = new Argon2PasswordHasher();
    const phc = await hasher.hash('Mellon');
    expect(phc).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(phc, 'Mellon')).to.equal(true);
    expect(await hasher.verify(phc, 'mellon')).to.equal(false);
    expect(await hasher.verify('not a hash', 'Mellon')).to.equal(false);
  });
});
