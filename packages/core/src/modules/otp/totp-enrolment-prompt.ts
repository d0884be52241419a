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
 * its service, of a user who has no second factor at all, is shown a new secret after the password
 * (a QR code and the text), and confirms it with a first code of it, which also proves the factor for
 * this login; the secret is then the user's on every node (`otp.enrolments`). The secret waits with the
 * held login (bound to its browser, on every node) until confirmed, the same each time its page is
 * shown, and is shown to that login alone: another login of the user, which may be anyone with the
 * password, is offered a secret of its own. Asked only where the policy would refuse the user without
 * a factor, as Apereo's device registration after the password.
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

  /** The secret offered to this login: the one it was shown already (a wrong code does not make the user scan again), else a new one. */
  prepare(context: PromptContext, _origin: RequestOrigin, previous?: TotpEnrolmentOffer): Promise<TotpEnrolmentOffer> {
    if (previous !== undefined && typeof previous.secret === 'string' && typeof previous.uri === 'string') return Promise.resolve(previous);
    const username = context.authentication.principal.id;
    const secret = new Secret({ buffer: new Uint8Array(this.random.bytes(SECRET_BYTES)).buffer });
    return Promise.resolve({ secret: secret.base32, uri: new TOTP({ issuer: this.issuer, label: username, secret }).toString() });
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
