import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { form, startTessera, type Tessera } from '../support/tessera.js';

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
    expect(await onlyPassword.json()).to.deep.equal({ authentication_exceptions: ['A one-time password is required for this user.'] });
    const current = code();
    const both = await login({ username: 'casuser', password: 'Mellon', otp: current });
    expect(both.status).to.equal(201);
    expect(await both.text()).to.match(/^TGT-/);
    const replay = await login({ username: 'casuser', password: 'Mellon', otp: current });
    expect(replay.status).to.equal(401);
    expect(tessera.logs.some((line) => line.includes('"event":"otp.reused"') && line.includes('"username":"casuser"'))).to.equal(true);
    expect(tessera.audit.filter((line) => line.includes('"action":"otp.reused"') && line.includes('"who":"casuser"') && line.includes('"outcome":"failure"'))).to.have.length(1);
    expect([...tessera.logs, ...tessera.audit].some((line) => line.includes(current) || line.includes(SECRET))).to.equal(false);
    // A code alone never logs in (it is spent all the same: any code seen in a request is used up).
    const alone = await login({ username: 'casuser', otp: code(1) });
    expect(alone.status).to.equal(401);
    expect(await alone.json()).to.deep.equal({ authentication_exceptions: ['A one-time password must come with the password.'] });
  });

  it("refuses casuser's code for alice, and lets alice in with her password alone", async () => {
    expect((await login({ username: 'alice', password: 'secret', otp: code() })).status).to.equal(401);
    expect((await login({ username: 'alice', password: 'secret' })).status).to.equal(201);
  });
});
