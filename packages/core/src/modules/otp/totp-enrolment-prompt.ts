import { Secret, TOTP } from 'otpauth';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { Clock } from '../../ports/clock.js';
import type { PromptContext, SessionPrompt, SessionPromptAnswer } from '../../ports/login-prompt.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { SecondFactorRequirement } from '../../use-cases/second-factor-requirement.js';
import type { OtpEnrolments } from './otp-enrolments.js';
import { TOTP_SECOND_FACTOR } from './totp-handler.js';
import type { TotpPrompt } from './totp-prompt.js';

/** What the enrolment page shows: the new secret (base32) and its `otpauth://` URI, for an authenticator app (a QR code of it, or typed in). */
export type TotpEnrolmentOffer = { readonly secret: string; readonly uri: string };

/** 160 random bits, RFC 4226's recommended length, in the parameters TotpHandler checks (SHA-1, 6 digits, 30 s). */
const SECRET_BYTES = 20;

/**
 * Self-registration of a TOTP secret (`otp.selfRegistration`): a login that must give `mfa-gauth` for
 * its service, of a user who has no factor the service accepts, is shown a new secret after the password
 * (a QR code and the text), and confirms it with a first code of it, which also proves the factor for
 * this login; the secret is then the user's on every node (`otp.enrolments`). The secret waits on the server
 * (`otp.offered`, and with the held login) until confirmed, the same each time the page is shown. Asked only where the policy would refuse the user without a
 * factor, as Apereo's device registration after the password.
 */
export class TotpEnrolmentPrompt implements SessionPrompt<TotpEnrolmentOffer, string> {
  readonly phase = 'session';
  readonly name = 'otp-enrolment';

  constructor(
    private readonly totp: TotpPrompt,
    private readonly enrolments: OtpEnrolments,
    private readonly factors: SecondFactorRequirement,
    private readonly random: RandomSource,
    private readonly clock: Clock,
    private readonly issuer: string,
  ) {}

  needed(context: PromptContext): Promise<boolean> {
    return this.factors.mayRegister(TOTP_SECOND_FACTOR.id, context.service, context.authentication);
  }

  /** The secret offered to the user: the same while it waits for its first code, so a wrong code does not make the user scan again. */
  async prepare(context: PromptContext): Promise<TotpEnrolmentOffer> {
    const username = context.authentication.principal.id;
    const fresh = new Secret({ buffer: new Uint8Array(this.random.bytes(SECRET_BYTES)).buffer }).base32;
    const secret = Secret.fromBase32(await this.enrolments.offer(username, fresh, this.clock.now()));
    return { secret: secret.base32, uri: new TOTP({ issuer: this.issuer, label: username, secret }).toString() };
  }

  async complete(context: PromptContext, code: string, origin: RequestOrigin, offer: TotpEnrolmentOffer | undefined): Promise<SessionPromptAnswer> {
    if (offer === undefined) throw new AuthenticationFailedError(['Enrol again.']);
    const username = context.authentication.principal.id;
    const authentication = await this.totp.proveWith(context.authentication, offer.secret, code, origin);
    // Another login of the user enrolled first: this secret is not the user's, so it proves nothing.
    if (!(await this.enrolments.enrol(username, { secret: offer.secret, enrolledAt: this.clock.now() }))) throw new AuthenticationFailedError(['A secret was enrolled meanwhile.']);
    return { proceed: true, authentication };
  }
}
