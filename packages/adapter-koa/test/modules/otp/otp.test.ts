import { INVALID_CREDENTIALS, DirectoryPasswordHandler } from '@tessera/core';
import { OtpSetups, RecordOtpReplayStore, RequireOtpPolicy, TotpHandler } from '@tessera/core/modules/otp';
import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { otpExtractor } from '../../../src/modules/otp/index.js';
import { usernamePasswordExtractor } from '../../../src/index.js';
import { testServer } from '../../harness.js';
import { CountingHasher, ListUserDirectory, MapRecordStores } from '@tessera/testkit';

const SECRET = new Secret({ size: 20 }).base32;

/** casuser/Mellon requires a TOTP code; alice/secret has none. The otp module's parts on unless `otpOff`. */
function otpServer(parameter = 'otp', otpOff = false) {
  const directory = new ListUserDirectory([
    { username: 'casuser', password: { kind: 'hash', phc: 'hashed:Mellon' }, attributes: {}, fields: { otpSecret: SECRET, requireOtp: true } },
    { username: 'alice', password: { kind: 'hash', phc: 'hashed:secret' }, attributes: {} },
  ]);
  const passwords = new DirectoryPasswordHandler('users', directory, new CountingHasher());
  // The server's clock, read when the handler runs (the server is made with the handler).
  const serverClock = { now: () => server.clock.now() };
  const server = testServer(
    otpOff
      ? { handlers: [passwords] }
      : {
          handlers: [passwords, new TotpHandler('totp', new OtpSetups(directory), new RecordOtpReplayStore(new MapRecordStores(serverClock), serverClock), serverClock, { emit: () => undefined })],
          extractors: [usernamePasswordExtractor, otpExtractor(parameter)],
          policies: [new RequireOtpPolicy(directory)],
        },
  );
  const code = () => TOTP.generate({ secret: Secret.fromBase32(SECRET), timestamp: server.clock.now() });
  const login = (fields: Record<string, string>) => server.http.post('/cas/v1/tickets').set('Accept', 'text/plain').type('form').send(fields);
  return { ...server, code, login };
}

// docs/protocol.md §2 — the one-time password credential, over HTTP
describe('docs/protocol.md §2 otp module: routes', () => {
  it('password and code in one request log in; the same code again is refused with 401', async () => {
    const server = otpServer();
    const code = server.code();
    expect((await server.login({ username: 'casuser', password: 'Mellon', otp: code })).status).to.equal(201);
    const replay = await server.login({ username: 'casuser', password: 'Mellon', otp: code });
    expect(replay.status).to.equal(401);
    expect(replay.body).to.deep.equal({ authentication_exceptions: [INVALID_CREDENTIALS] });
  });

  it('a user requiring OTP fails with only a password, answered as a wrong password is', async () => {
    const server = otpServer();
    const response = await server.login({ username: 'casuser', password: 'Mellon' });
    expect(response.status).to.equal(401);
    expect(response.body).to.deep.equal({ authentication_exceptions: [INVALID_CREDENTIALS] });
    expect((await server.login({ username: 'casuser', password: 'wrong' })).body).to.deep.equal(response.body);
  });

  it('/v1/users reports both credentials; the parameter name is configurable, JSON bodies too', async () => {
    const server = otpServer('totp');
    const response = await server.http.post('/cas/v1/users').type('json').send({ username: 'casuser', password: 'Mellon', totp: server.code() });
    expect(response.status, response.text).to.equal(200);
    const credentials = (response.body as { authentication: { credentials: unknown } }).authentication.credentials;
    expect(credentials).to.deep.equal([{ id: 'casuser', type: 'usernamePassword' }, { id: 'casuser', type: 'otp' }]);
    expect(response.text).not.to.include(server.code());
  });

  it("a code is checked against the sender's own secret: casuser's code does not help alice", async () => {
    const server = otpServer();
    expect((await server.login({ username: 'alice', password: 'secret', otp: server.code() })).status).to.equal(401);
    expect((await server.login({ username: 'alice', password: 'secret' })).status).to.equal(201);
  });

  it('module off: the parameter is ignored', async () => {
    const server = otpServer('otp', true);
    expect((await server.login({ username: 'alice', password: 'secret', otp: '000000' })).status).to.equal(201);
  });
});
