import type { Clock, RandomSource } from '@tessera/core';
import { TotpEnrolmentPrompt, type OtpEnrolments, type TotpPrompt } from '@tessera/core/modules/otp';
import type { HttpModule } from '../../http-module.js';
import { otpEnrolmentStep } from './otp-enrolment-step.js';
import { otpFieldPart } from './otp-field.js';
import { otpStep } from './otp-step.js';

/** Self-registration (`otp.selfRegistration`): where enrolled secrets go, and what makes a new one. */
export interface OtpEnrolmentOptions {
  readonly enrolments: OtpEnrolments;
  readonly random: RandomSource;
  readonly clock: Clock;
  /** The issuer an authenticator app shows. */
  readonly issuer: string;
}

/**
 * The `otp` module's part of the HTTP face (docs/protocol.md §4): no route of its own; a field for the
 * code on the login form, posted as `parameter`, which its extractor (otpExtractor) reads there as on
 * every route that takes credentials; and the page of its prompt, asking the code of a login a
 * service's `multifactorPolicy` wants it of (step-up); with self-registration, the page enrolling a
 * secret for a user who has none.
 */
export function otpModule(parameter: string, prompt: TotpPrompt, enrolment?: OtpEnrolmentOptions): HttpModule {
  return {
    name: 'otp',
    extensions: (http) => {
      const enrol = enrolment && new TotpEnrolmentPrompt(prompt, enrolment.enrolments, http.core.secondFactor, enrolment.random, enrolment.clock, enrolment.issuer);
      return { loginPrompts: [otpFieldPart(parameter), otpStep(parameter, prompt), ...(enrol ? [otpEnrolmentStep(parameter, enrol)] : [])] };
    },
  };
}
