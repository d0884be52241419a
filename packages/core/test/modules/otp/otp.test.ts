import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { Authenticator, INVALID_CREDENTIALS, MIXED_PRINCIPALS, type Credential, type CredentialHandler, DirectoryPasswordHandler, type UserRecord } from '@tessera/core';
import { INVALID_OTP, OTP_ALONE, OTP_REQUIRED, OtpSetups, REUSED_OTP, RecordOtpReplayStore, RequireOtpPolicy, TotpHandler, oneTimePasswordCredential, otpSetupOf, type OtpReusedEvent } from '@tessera/core/modules/otp';
import { FixedClock, RecordingEvents, TableHandler, password } from '../../fakes.js';
import { CountingHasher, ListUserDirectory, MapRecordStores, rejectionOf } from '@tessera/testkit';
import { failureReasons } from '../../failure-reasons.js';

const CASUSER_SECRET = new Secret({ size: 20 }).base32;
const BOB_SECRET = new Secret({ size: 20 }).base32;

function setup() {
  const clock = new FixedClock();
  const events = new RecordingEvents();
  const directory = new ListUserDirectory([
    { username: 'casuser', password: { kind: 'plain', value: 'Mellon' }, attributes: {}, fields: { otpSecret: CASUSER_SECRET, requireOtp: true } },
    { username: 'bob', password: { kind: 'plain', value: 'builder' }, attributes: {}, fields: { otpSecret: BOB_SECRET, requireOtp: false } },
    { username: 'alice', password: { kind: 'plain', value: 'secret' }, attributes: {} },
  ]);
  const totp = new TotpHandler('totp', new OtpSetups(directory), new RecordOtpReplayStore(new MapRecordStores(clock), clock), clock, events);
  const passwords = new TableHandler('table', { casuser: { password: 'Mellon' }, bob: { password: 'builder' }, alice: { password: 'secret' } });
  const authenticator = new Authenticator([passwords, totp], clock, events, [new RequireOtpPolicy(directory)]);
  /** The code of the step `steps` away from now. */
  const code = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() + steps * 30_000 });
  return { clock, events, authenticator, code };
}

const otp = (username: string, code: string): Credential => oneTimePasswordCredential(username, code);

/** What the caller is shown (`shown`) and what the authentication.failed event says (`reported`); both empty when it passed. */
async function refusal(events: RecordingEvents, attempt: Promise<unknown>): Promise<{ shown: readonly string[]; reported: readonly string[] }> {
  const before = events.ofType('authentication.failed').length;
  const shown = await failureReasons(attempt);
  const reported = events.ofType('authentication.failed').slice(before)[0]?.reasons ?? [];
  return { shown, reported };
}

const concealed = (reported: readonly string[]) => ({ shown: [INVALID_CREDENTIALS], reported });

// docs/protocol.md §2 one-time passwords: each code works once (ASVS 2.8.4, 2.8.5)
describe('otp: TOTP credentials (docs/protocol.md §2)', () => {
  it('accepts password + the current code, naming both credential types', async () => {
    const { authenticator, code } = setup();
    const result = await authenticator.authenticate([password('casuser', 'Mellon'), otp('casuser', code(CASUSER_SECRET))]);
    expect(result.principal.id).to.equal('casuser');
    expect(result.attributes.credentialType).to.deep.equal(['usernamePassword', 'otp']);
    expect(Object.keys(result.successes)).to.deep.equal(['table', 'totp']);
  });

  it('accepts the step before and after (clock drift), not two steps away', async () => {
    for (const [steps, accepted] of [[-1, true], [1, true], [-2, false], [2, false]] as const) {
      const { authenticator, code, events } = setup();
      const found = await refusal(events, authenticator.authenticate([password('bob', 'builder'), otp('bob', code(BOB_SECRET, steps))]));
      expect(found, `step ${steps}`).to.deep.equal(accepted ? { shown: [], reported: [] } : concealed([INVALID_OTP]));
    }
  });

  it('accepts a code only once, refusing and reporting a replay and any older code', async () => {
    const { authenticator, code, clock, events } = setup();
    const current = code(BOB_SECRET);
    await authenticator.authenticate([password('bob', 'builder'), otp('bob', current)]);
    clock.advanceSeconds(10);
    const origin = { clientAddress: '203.0.113.7', requestId: 'replay' };
    expect(await refusal(events, authenticator.authenticate([password('bob', 'builder'), otp('bob', current)], origin))).to.deep.equal(concealed([REUSED_OTP]));
    expect(await refusal(events, authenticator.authenticate([password('bob', 'builder'), otp('bob', code(BOB_SECRET, -1))]))).to.deep.equal(concealed([REUSED_OTP]));
    expect(events.ofType<OtpReusedEvent>('otp.reused')).to.deep.equal([{ type: 'otp.reused', username: 'bob' }, { type: 'otp.reused', username: 'bob' }]);
    expect(events.ofType<OtpReusedEvent>('otp.reused').map((event) => events.origins.get(event))).to.deep.equal([origin, undefined]);
    clock.advanceSeconds(30);
    expect(await failureReasons(authenticator.authenticate([password('bob', 'builder'), otp('bob', code(BOB_SECRET))]))).to.deep.equal([]);
  });

  it('a user requiring OTP fails with only a password; others log in with a password alone', async () => {
    const { authenticator, events } = setup();
    expect(await refusal(events, authenticator.authenticate([password('casuser', 'Mellon')]))).to.deep.equal(concealed([OTP_REQUIRED]));
    expect(await failureReasons(authenticator.authenticate([password('bob', 'builder')]))).to.deep.equal([]);
  });

  it('needs both factors right: a wrong password with a right code fails, and so does a code alone', async () => {
    const { authenticator, code, events } = setup();
    expect(await refusal(events, authenticator.authenticate([password('casuser', 'nope'), otp('casuser', code(CASUSER_SECRET))]))).to.deep.equal(concealed(['table refused']));
    expect(await refusal(events, authenticator.authenticate([otp('casuser', code(CASUSER_SECRET, 1))]))).to.deep.equal(concealed([OTP_ALONE]));
  });

  it("refuses another user's code: checked against this user's secret, or a different principal", async () => {
    const { authenticator, code, events } = setup();
    expect(await refusal(events, authenticator.authenticate([password('casuser', 'Mellon'), otp('casuser', code(BOB_SECRET))]))).to.deep.equal(concealed([INVALID_OTP]));
    expect(await refusal(events, authenticator.authenticate([password('casuser', 'Mellon'), otp('bob', code(BOB_SECRET))]))).to.deep.equal(concealed([MIXED_PRINCIPALS]));
  });

  it('one reason for a malformed code, a user without OTP and an unknown user', async () => {
    const { authenticator, code, events } = setup();
    for (const credential of [otp('bob', '12345'), otp('bob', 'abcdef'), otp('alice', code(BOB_SECRET)), otp('nobody', '123456')]) {
      expect(await refusal(events, authenticator.authenticate([password('bob', 'builder'), credential]))).to.deep.equal(concealed([INVALID_OTP]));
    }
  });

  it('a user without a code to give keeps the reasons of a password login', async () => {
    const { authenticator, events } = setup();
    expect(await refusal(events, authenticator.authenticate([password('alice', 'wrong')]))).to.deep.equal({ shown: ['table refused'], reported: ['table refused'] });
  });
});

// One timing class for every wrong factor: the same work is done whichever factor is wrong.
describe('otp: every factor is checked, whichever fails', () => {
  it('runs the password hash for every login with a password, and checks every code given', async () => {
    const clock = new FixedClock();
    const events = new RecordingEvents();
    const hasher = new CountingHasher();
    const directory = new ListUserDirectory([{ username: 'casuser', password: { kind: 'hash', phc: await hasher.hash('Mellon') }, attributes: {}, fields: { otpSecret: CASUSER_SECRET, requireOtp: true } }]);
    const totp = new TotpHandler('totp', new OtpSetups(directory), new RecordOtpReplayStore(new MapRecordStores(clock), clock), clock, events);
    let codesChecked = 0;
    const countingTotp: CredentialHandler = {
      name: totp.name,
      supports: (credential) => totp.supports(credential),
      authenticate: (credential, origin) => {
        codesChecked += 1;
        return totp.authenticate(credential, origin);
      },
    };
    const authenticator = new Authenticator([new DirectoryPasswordHandler('config-users', directory, hasher), countingTotp], clock, events, [new RequireOtpPolicy(directory)]);
    const code = (steps: number) => TOTP.generate({ secret: Secret.fromBase32(CASUSER_SECRET), timestamp: clock.now() + steps * 30_000 });
    const rightCodes = [code(-1), code(0), code(1)];
    const wrongCode = ['000000', '000001', '000002', '000003'].find((candidate) => !rightCodes.includes(candidate)) ?? '';
    const attempts: [string, Credential[]][] = [
      ['password wrong', [password('casuser', 'wrong'), otp('casuser', code(-1))]],
      ['code wrong', [password('casuser', 'Mellon'), otp('casuser', wrongCode)]],
      ['code missing', [password('casuser', 'Mellon')]],
      ['code reused', [password('casuser', 'Mellon'), otp('casuser', code(-1))]],
    ];
    for (const [what, credentials] of attempts) {
      const [verificationsBefore, codesBefore] = [hasher.verifications, codesChecked];
      expect(await failureReasons(authenticator.authenticate(credentials)), what).to.deep.equal([INVALID_CREDENTIALS]);
      expect(hasher.verifications - verificationsBefore, `${what}: password hashes`).to.equal(1);
      expect(codesChecked - codesBefore, `${what}: codes checked`).to.equal(credentials.length - 1);
    }
  });
});

// The otp module reads its own fields of a user, as each source holds them (docs/storage.md).
describe("otp: a user's TOTP setup, read from the user's fields", () => {
  const user = (fields?: Record<string, unknown>): UserRecord => ({ username: 'dave', password: { kind: 'plain', value: 'pw-secret' }, attributes: {}, ...(fields && { fields }) });

  it('reads a users entry, a Redis hash and a MongoDB document alike; no field means no setup', () => {
    expect(otpSetupOf(user({ otpSecret: BOB_SECRET, requireOtp: true }))).to.deep.equal({ secret: BOB_SECRET, required: true });
    expect(otpSetupOf(user({ otpSecret: BOB_SECRET, requireOtp: 'true' }))).to.deep.equal({ secret: BOB_SECRET, required: true });
    expect(otpSetupOf(user({ otpSecret: BOB_SECRET, requireOtp: 'false' }))).to.deep.equal({ secret: BOB_SECRET, required: false });
    expect(otpSetupOf(user({ otpSecret: BOB_SECRET }))).to.deep.equal({ secret: BOB_SECRET, required: false });
    expect(otpSetupOf(user({ otp: { secret: BOB_SECRET, required: true } }))).to.deep.equal({ secret: BOB_SECRET, required: true });
    expect(otpSetupOf(user())).to.equal(undefined);
    expect(otpSetupOf(user({ otp: null, department: 'sales' }))).to.equal(undefined);
  });

  it('fails on a field it cannot read safely, naming the user and the field, never the secret', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ otpSecret: BOB_SECRET, requireOtp: 'yes' }, /requireOtp other than true or false/],
      [{ requireOtp: 'true' }, /requireOtp true but no otpSecret/],
      [{ requireOtp: true }, /requireOtp true but no otpSecret/],
      [{ otpSecret: 42 }, /otpSecret that is not a string/],
      [{ otp: { secret: BOB_SECRET, required: 'true' } }, /otp field other than/],
      [{ otp: BOB_SECRET }, /otp field other than/],
    ];
    for (const [fields, expected] of cases) {
      const read = () => otpSetupOf(user(fields));
      expect(read, JSON.stringify(Object.keys(fields))).to.throw(expected);
      expect(read).to.throw(/'dave'/);
      try {
        read();
      } catch (error) {
        expect((error as Error).message).to.not.include(BOB_SECRET);
      }
    }
  });

  it("fails closed: a requireOtp it cannot read fails the user's password login, never lets it through without a code", async () => {
    const clock = new FixedClock();
    const events = new RecordingEvents();
    const directory = new ListUserDirectory([user({ otpSecret: BOB_SECRET, requireOtp: 'yes' })]);
    const authenticator = new Authenticator([new TableHandler('table', { dave: { password: 'pw-secret' } })], clock, events, [new RequireOtpPolicy(directory)]);
    const error = await rejectionOf(authenticator.authenticate([password('dave', 'pw-secret')]));
    expect(error.message).to.match(/requireOtp other than true or false/);
  });
});
