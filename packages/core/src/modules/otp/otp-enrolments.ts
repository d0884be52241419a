import type { AttributeMap } from '../../domain/authentication/principal.js';
import type { UserDirectory } from '../../ports/user-directory.js';
import type { RecordStore, RecordStores } from '../../ports/record-store.js';
import { otpSetupOf, type OtpSetup } from './otp-setup.js';

/** A TOTP secret a user enrolled in the login (self-registration), base32, and when. */
export type OtpEnrolment = { readonly secret: string; readonly enrolledAt: number };

/** The otp module's namespaces of enrolled secrets, and of secrets shown but not confirmed yet, in the storage's RecordStores. */
export const OTP_ENROLMENTS_NAMESPACE = 'otp.enrolments';
export const OTP_OFFERED_NAMESPACE = 'otp.offered';

/** How long a secret shown for enrolment waits for its first code: a page shown again within it shows the same secret. */
export const OFFER_SECONDS = 15 * 60;

/** Enrolled secrets are kept until removed: a lifetime past any the server will see. */
const KEPT_UNTIL_REMOVED = Date.UTC(9999, 11, 31);

/**
 * The secrets users enrolled themselves in the login (`otp.selfRegistration`), shared by every node
 * (record namespace `otp.enrolments`, one record per user): one per user, written once.
 */
export class OtpEnrolments {
  private readonly records: RecordStore<OtpEnrolment>;
  private readonly offered: RecordStore<string>;

  constructor(records: RecordStores) {
    this.records = records.namespace<OtpEnrolment>(OTP_ENROLMENTS_NAMESPACE);
    this.offered = records.namespace<string>(OTP_OFFERED_NAMESPACE);
  }

  /**
   * The secret offered to the user for enrolment: the one shown already when it is still waiting (the
   * page shown again after a wrong code, or on another node), else `fresh`, kept for OFFER_SECONDS.
   */
  async offer(username: string, fresh: string, now: number): Promise<string> {
    const shown = await this.offered.get(username);
    if (shown !== undefined) return shown;
    if (await this.offered.insert(username, fresh, now + OFFER_SECONDS * 1000)) return fresh;
    return (await this.offered.get(username)) ?? fresh;
  }

  find(username: string): Promise<OtpEnrolment | undefined> {
    return this.records.get(username);
  }

  /** Keeps the user's secret: false, and nothing written, when the user enrolled one already. */
  async enrol(username: string, enrolment: OtpEnrolment): Promise<boolean> {
    const enrolled = await this.records.insert(username, enrolment, KEPT_UNTIL_REMOVED);
    if (enrolled) await this.offered.delete(username);
    return enrolled;
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
