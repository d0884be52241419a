import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { Argon2PasswordHasher } from '@tessera/core';
import { form, startTessera, type Tessera } from '../../support/tessera.js';

const SECRET = new Secret({ size: 20 }).base32;
/** The code of the 30 s step `steps` away from now. */
const code = (steps = 0) => TOTP.generate({ secret: Secret.fromBase32(SECRET), timestamp: Date.now() + steps * 30_000 });

// docs/protocol.md §2 one-time passwords, over real HTTP with the otp (and throttle) modules on
describe('otp module end to end (docs/protocol.md §2)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({
      modules: ['rest', 'otp', 'throttle'],
      users: [
        { username: 'casuser', password: 'Mellon', otpSecret: SECRET, requireOtp: true },
        { username: 'alice', password: 'secret' },
      ],
    });
  });
  after(() => tessera.close());

  const login = (fields: Record<string, string>) =>
    fetch(`${tessera.url}/v1/tickets`, { ...form(fields), headers: { ...form({}).headers, accept: 'text/plain' } });

  it('needs both factors in one request, each code once; a replay is refused and logged', async () => {
    const onlyPassword = await login({ username: 'casuser', password: 'Mellon' });
    expect(onlyPassword.status).to.equal(401);
    expect(await onlyPassword.json()).to.deep.equal({ authentication_exceptions: ['Invalid credentials. Please verify and try again.'] });
    // The log says why, for the operator; the caller is not told that the password was right.
    expect(tessera.logs.some((line) => line.includes('"event":"authentication.failed"') && line.includes('A one-time password is required for this user.'))).to.equal(true);
    const current = code();
    const both = await login({ username: 'casuser', password: 'Mellon', otp: current });
    expect(both.status).to.equal(201);
    expect(await both.text()).to.match(/^TGT-/);
    const replay = await login({ username: 'casuser', password: 'Mellon', otp: current });
    expect(replay.status).to.equal(401);
    // Logged with the failed login it is part of: one line of the request's events.
    expect(tessera.logs.some((line) => line.includes('"events":["otp.reused","authentication.failed"]') && line.includes('"username":"casuser"'))).to.equal(true);
    expect(tessera.audit.filter((line) => line.includes('"action":"otp.reused"') && line.includes('"who":"casuser"') && line.includes('"outcome":"failure"'))).to.have.length(1);
    expect([...tessera.logs, ...tessera.audit].some((line) => line.includes(current) || line.includes(SECRET))).to.equal(false);
    // A code alone never logs in (it is spent all the same: any code seen in a request is used up).
    const alone = await login({ username: 'casuser', otp: code(1) });
    expect(alone.status).to.equal(401);
    expect(await alone.json()).to.deep.equal({ authentication_exceptions: ['Invalid credentials. Please verify and try again.'] });
  });

  it("refuses casuser's code for alice, and lets alice in with her password alone", async () => {
    expect((await login({ username: 'alice', password: 'secret', otp: code() })).status).to.equal(401);
    expect((await login({ username: 'alice', password: 'secret' })).status).to.equal(201);
  });
});

// For a user who must present a code, no answer tells which factor was wrong, so the password cannot be guessed apart from the code.
describe('otp module: one answer for every wrong factor', () => {
  let tessera: Tessera;
  const THRESHOLD = 7;
  before(async () => {
    const passwordHash = await new Argon2PasswordHasher().hash('Mellon');
    tessera = await startTessera({
      modules: ['rest', 'otp', 'throttle'],
      throttle: { failure: { threshold: THRESHOLD } },
      users: [{ username: 'casuser', passwordHash, otpSecret: SECRET, requireOtp: true }],
    });
  });
  after(() => tessera.close());

  const login = (fields: Record<string, string>) =>
    fetch(`${tessera.url}/v1/tickets`, { ...form(fields), headers: { ...form({}).headers, accept: 'text/plain' } });
  const answer = async (fields: Record<string, string>) => {
    const response = await login(fields);
    return { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
  };

  it('password wrong, code wrong, code missing, code reused or password missing: the same status and body, each counted once by the throttle', async () => {
    const codes = [code(-1), code(0), code(1)];
    const wrongCode = ['000000', '999999', '123456'].find((candidate) => !codes.includes(candidate)) ?? '000001';
    const unknownUser = await answer({ username: 'nobody', password: 'Mellon' });
    expect(unknownUser.status).to.equal(401);
    expect(JSON.parse(unknownUser.body)).to.deep.equal({ authentication_exceptions: ['Invalid credentials. Please verify and try again.'] });

    const answers = [
      await answer({ username: 'casuser', password: 'wrong', otp: codes[0] ?? '' }), // a right code, spent with the wrong password
      await answer({ username: 'casuser', password: 'Mellon', otp: wrongCode }),
      await answer({ username: 'casuser', password: 'Mellon' }),
      await answer({ username: 'casuser', password: 'Mellon', otp: codes[0] ?? '' }), // used up by the first request
      await answer({ username: 'casuser', otp: codes[1] ?? '' }),
      await answer({ username: 'casuser', password: 'wrong' }),
    ];
    expect(answers).to.have.length(THRESHOLD - 1);
    for (const each of answers) expect(each).to.deep.equal(unknownUser);

    // The unknown user's key is another: casuser's own failures reach the threshold with one more.
    expect((await login({ username: 'casuser', password: 'wrong', otp: wrongCode })).status).to.equal(401);
    expect((await login({ username: 'casuser', password: 'Mellon', otp: codes[2] ?? '' })).status).to.equal(423);
    // The log and the trail may say which factor failed, never the codes.
    expect([...tessera.logs, ...tessera.audit].some((line) => [...codes, wrongCode].some((sent) => line.includes(sent)))).to.equal(false);
  });
});
