import { OTP_FIELD_PROMPT } from '@tessera/core/modules/otp';
import { loginPromptPart, type LoginPageView, type LoginPromptPart } from '../../http-module.js';
import { html } from '../../pages/html.js';

/** The otp module's texts on the login pages, by the pages' language (`login.language`). */
export interface OtpMessages {
  readonly code: string;
  readonly codeHint: string;
  /** The step a service with a `multifactorPolicy` asks: its heading, what it says, its button, and after a refused code. */
  readonly stepHeading: string;
  readonly stepIntro: string;
  readonly stepSubmit: string;
  readonly stepRefused: string;
  /** The enrolment of a secret in the login (self-registration): its heading, what it says, the QR code's text, the secret's label, its button. */
  readonly enrolHeading: string;
  readonly enrolIntro: string;
  readonly enrolQrAlt: string;
  readonly enrolSecret: string;
  readonly enrolSubmit: string;
}

const en: OtpMessages = {
  code: 'One-time code',
  codeHint: 'Only if your account uses one: the 6 digits your authenticator app shows.',
  stepHeading: 'One-time code',
  stepIntro: 'This service asks for a second factor: enter the 6 digits your authenticator app shows.',
  stepSubmit: 'Continue',
  stepRefused: 'That code was not accepted. Enter the code your authenticator app shows now.',
  enrolHeading: 'Set up one-time codes',
  enrolIntro: 'This service asks for a second factor, and your account has none yet. Scan the QR code with your authenticator app, or type in the secret below, then enter the 6 digits it shows.',
  enrolQrAlt: 'QR code of the secret, for an authenticator app',
  enrolSecret: 'Secret:',
  enrolSubmit: 'Confirm',
};

export const OTP_MESSAGES: Readonly<Record<string, OtpMessages>> = { en };

/** The texts in `language`, else in English. */
export function otpMessages(language: string): OtpMessages {
  return OTP_MESSAGES[language] ?? en;
}

/** The login form's field for the code, posted as `parameter`, which the module's extractor reads. */
export function otpFormField(parameter: string): LoginPageView {
  return {
    markup: (language) => {
      const text = otpMessages(language);
      return html`<div class="field"><label for="otp">${text.code}</label><input type="text" id="otp" name="${parameter}" inputmode="numeric" autocomplete="one-time-code" aria-describedby="otp-hint"><p class="hint" id="otp-hint">${text.codeHint}</p></div>`;
    },
  };
}

/** The code's field as a part of the login page (core's OTP_FIELD_PROMPT). */
export function otpFieldPart(parameter: string): LoginPromptPart {
  return loginPromptPart(OTP_FIELD_PROMPT, otpFormField(parameter));
}
