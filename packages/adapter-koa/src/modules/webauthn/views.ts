import type { PasskeyButton, PreparedCeremony, RegistrationAnswer, WebAuthnPrompt, WebAuthnRegistrationPrompt, PasskeyButtonPrompt } from '@tessera/core/modules/webauthn';
import { loginPromptPart, type LoginPromptPart, type ScriptFile } from '../../http-module.js';
import { html } from '../../pages/html.js';
import { webAuthnMessages } from './messages.js';
import { DEVICE_NAME, RESPONSE, WEBAUTHN_PARAMETERS } from './parameters.js';
import { CEREMONY_SCRIPT, PASSKEY_BUTTON_SCRIPT } from './scripts.js';

/**
 * The passkey button on the login page (core's PasskeyButtonPrompt): hidden until its script finds
 * WebAuthn in the browser; it posts the answer and the challenge's id with the form, which the
 * module's extractor reads. Nothing when the prompt could not keep a challenge.
 */
export function passkeyButtonPart(prompt: PasskeyButtonPrompt, library: ScriptFile): LoginPromptPart {
  return loginPromptPart<PasskeyButton>(prompt, {
    markup: (language, prepared) => {
      if (prepared === undefined) return html``;
      const text = webAuthnMessages(language);
      return html`<div class="passkey"><input type="hidden" name="${WEBAUTHN_PARAMETERS.challenge}" value="${prepared.challengeId}"><input type="hidden" name="${WEBAUTHN_PARAMETERS.response}" value="">
<button type="button" class="secondary" id="passkey-login" data-options="${JSON.stringify(prepared.options)}" data-failed="${text.passkeyFailed}" hidden>${text.passkeyButton}</button>
<p class="hint" id="passkey-status" role="status"></p></div>`;
    },
    script: (prepared) => (prepared === undefined ? undefined : PASSKEY_BUTTON_SCRIPT),
    scriptFiles: [library],
  });
}

/** The page of the second factor (core's WebAuthnPrompt): one button that runs the ceremony and posts its answer. */
export function webAuthnStep(prompt: WebAuthnPrompt, library: ScriptFile): LoginPromptPart {
  return loginPromptPart<PreparedCeremony, string, unknown>(prompt, {
    parameters: { [WEBAUTHN_PARAMETERS.response]: RESPONSE },
    page: (language, _context, prepared) => {
      const text = webAuthnMessages(language);
      return {
        heading: text.stepHeading,
        content: html`<p>${text.stepIntro}</p>
${ceremony('authenticate', prepared, text.ceremonyFailed)}`,
        submit: text.stepSubmit,
        refused: text.refused,
        script: CEREMONY_SCRIPT,
        scriptFiles: [library],
      };
    },
    read: (parameters) => {
      const response = parameters[WEBAUTHN_PARAMETERS.response];
      return typeof response === 'string' ? response : '';
    },
  });
}

/** The registration page (core's WebAuthnRegistrationPrompt): the key's name, and a button that runs the ceremony and posts its answer. */
export function webAuthnRegistrationStep(prompt: WebAuthnRegistrationPrompt, library: ScriptFile): LoginPromptPart {
  return loginPromptPart<PreparedCeremony, RegistrationAnswer, unknown>(prompt, {
    parameters: { [WEBAUTHN_PARAMETERS.response]: RESPONSE, [WEBAUTHN_PARAMETERS.deviceName]: DEVICE_NAME },
    page: (language, _context, prepared) => {
      const text = webAuthnMessages(language);
      return {
        heading: text.registerHeading,
        content: html`<p>${text.registerIntro}</p>
<div class="field"><label for="webauthn-device-name">${text.deviceName}</label><input type="text" id="webauthn-device-name" name="${WEBAUTHN_PARAMETERS.deviceName}" maxlength="64" autocomplete="off" aria-describedby="webauthn-device-name-hint"><p class="hint" id="webauthn-device-name-hint">${text.deviceNameHint}</p></div>
${ceremony('register', prepared, text.ceremonyFailed)}`,
        submit: text.registerSubmit,
        refused: text.refused,
        script: CEREMONY_SCRIPT,
        scriptFiles: [library],
      };
    },
    read: (parameters) => {
      const response = parameters[WEBAUTHN_PARAMETERS.response];
      const name = parameters[WEBAUTHN_PARAMETERS.deviceName];
      return { response: typeof response === 'string' ? response : '', name: typeof name === 'string' ? name : '' };
    },
  });
}

/** What the ceremony script reads: which ceremony, its options, the message when it fails; the field it fills; the status line. */
function ceremony(kind: 'authenticate' | 'register', prepared: PreparedCeremony | undefined, failed: string) {
  return html`<div id="webauthn-ceremony" data-ceremony="${kind}" data-options="${JSON.stringify(prepared?.options ?? {})}" data-failed="${failed}"></div>
<input type="hidden" name="${WEBAUTHN_PARAMETERS.response}" value="">
<p class="hint" id="webauthn-status" role="status"></p>`;
}
