import type { AttributeMap } from '../../domain/authentication/principal.js';
import type { UserDirectory } from '../../ports/user-directory.js';
import type { RecordStore, RecordStores } from '../../ports/record-store.js';
import { otpSetupOf, type OtpSetup } from './otp-setup.js';

/** A TOTP secret a user enrolled in the login (self-registration), base32, and when. */
export type OtpEnrolment = { readonly secret: string; readonly enrolledAt: number };

/** The otp module's namespace of enrolled secrets in the storage's RecordStores. */
export const OTP_ENROLMENTS_NAMESPACE = 'otp.enrolments';

/** Enrolled secrets are kept until removed: a lifetime past any the server will see. */
const KEPT_UNTIL_REMOVED = Date.UTC(9999, 11, 31);

/**
 * The secrets users enrolled themselves in the login (`otp.selfRegistration`), shared by every node
 * (record namespace `otp.enrolments`, one record per user): one per user, written once.
 */
export class OtpEnrolments {
  private readonly records: RecordStore<OtpEnrolment>;

  constructor(records: RecordStores) {
    this.records = records.namespace<OtpEnrolment>(OTP_ENROLMENTS_NAMESPACE);
  }

  find(username: string): Promise<OtpEnrolment | undefined> {
    return this.records.get(username);
  }

  /** Keeps the user's secret: false, and nothing written, when the user enrolled one already. */
  enrol(username: string, enrolment: OtpEnrolment): Promise<boolean> {
    return this.records.insert(username, enrolment, KEPT_UNTIL_REMOVED);
  }

  /** Forgets the user's enrolled secret: false when there was none. */
  async remove(username: string): Promise<boolean> {
    return (await this.records.take(username)) !== undefined;
  }
}

/**
 * A user's TOTP setup wherever it is: the user directory's fields (`otpSecret`, `requireOtp`: what an
 * administrator set), else the secret the user enrolled in the login, which never makes a code
 * required for every login.
 */
export class OtpSetups {
  constructor(
    private readonly directory: UserDirectory,
    private readonly enrolments?: OtpEnrolments,
  ) {}

  async of(username: string): Promise<OtpSetup | undefined> {
    return (await this.find(username))?.setup;
  }

  /** The setup, with the user's attributes in the directory (none for a user only another source knows, such as LDAP). */
  async find(username: string): Promise<{ readonly setup: OtpSetup; readonly attributes: AttributeMap } | undefined> {
    const user = await this.directory.findByUsername(username);
    const configured = user && otpSetupOf(user);
    const attributes = user?.attributes ?? {};
    if (configured !== undefined) return { setup: configured, attributes };
    const enrolled = await this.enrolments?.find(username);
    return enrolled === undefined ? undefined : { setup: { secret: enrolled.secret, required: false }, attributes };
  }
}
