import type { TotpPrompt } from '@tessera/core/modules/otp';
import { loginPromptPart, type LoginPromptPart } from '../../http-module.js';
import { html } from '../../pages/html.js';
import { optionalText } from '../../request/parameter-schemas.js';
import { otpMessages } from './otp-field.js';

/** The code a step page posts: one schema for every page of the module that asks one (POST /login/step reads each name once). */
export const STEP_CODE = optionalText('The TOTP code a service asks of this login (the otp module’s step), or the first code of a secret being enrolled.');

/**
 * The view of the otp module's prompt (core's TotpPrompt): the page asking the TOTP code a service's
 * `multifactorPolicy` wants of a login that has not given one, after the password or on single
 * sign-on (step-up). Posted as `parameter`, as on the login form.
 */
export function otpStep(parameter: string, prompt: TotpPrompt): LoginPromptPart {
  return loginPromptPart(prompt, {
    parameters: { [parameter]: STEP_CODE },
    page: (language) => {
      const text = otpMessages(language);
      return {
        heading: text.stepHeading,
        content: html`<p>${text.stepIntro}</p><div class="field"><label for="otp">${text.code}</label><input type="text" id="otp" name="${parameter}" inputmode="numeric" autocomplete="one-time-code" required autofocus></div>`,
        submit: text.stepSubmit,
        refused: text.stepRefused,
      };
    },
    read: (parameters) => {
      const code = parameters[parameter];
      return typeof code === 'string' ? code.trim() : '';
    },
  });
}
