import type { TotpStepUp } from '@tessera/core/modules/otp';
import type { LoginStep } from '../../http-module.js';
import { html } from '../../pages/html.js';
import { optionalText } from '../../request/parameter-schemas.js';
import { otpMessages } from './otp-field.js';

/**
 * The otp module's step of the browser login: the TOTP code a service's `multifactorPolicy` asks of a
 * login that has not given one, after the password or on single sign-on (step-up), of users with a
 * secret. Posted as `parameter`, as on the login form.
 */
export function otpStep(parameter: string, stepUp: TotpStepUp): LoginStep {
  return {
    name: 'otp',
    parameters: { [parameter]: optionalText('The TOTP code a service asks of this login (the otp module’s step).') },
    needed: ({ authentication, service }) => stepUp.needed(authentication, service),
    page: (language) => {
      const text = otpMessages(language);
      return {
        heading: text.stepHeading,
        content: html`<p>${text.stepIntro}</p><div class="field"><label for="otp">${text.code}</label><input type="text" id="otp" name="${parameter}" inputmode="numeric" autocomplete="one-time-code" required autofocus></div>`,
        submit: text.stepSubmit,
        refused: text.stepRefused,
      };
    },
    complete: async ({ authentication }, parameters, origin) => {
      const code = parameters[parameter];
      return stepUp.prove(authentication, typeof code === 'string' ? code.trim() : '', origin);
    },
  };
}
