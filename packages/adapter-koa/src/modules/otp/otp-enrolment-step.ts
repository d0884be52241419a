import type { TotpEnrolmentOffer, TotpEnrolmentPrompt } from '@tessera/core/modules/otp';
import { create } from 'qrcode';
import { loginPromptPart, type LoginPromptPart } from '../../http-module.js';
import { html } from '../../pages/html.js';
import { otpMessages } from './otp-field.js';
import { STEP_CODE } from './otp-step.js';

/**
 * The view of the otp module's enrolment (core's TotpEnrolmentPrompt): the new secret as a QR code (an
 * SVG image, which the pages' CSP allows as `data:`) and as text, and the field for a first code of it,
 * posted as `parameter` as on the login form.
 */
export function otpEnrolmentStep(parameter: string, prompt: TotpEnrolmentPrompt): LoginPromptPart {
  return loginPromptPart<TotpEnrolmentOffer, string, unknown>(prompt, {
    parameters: { [parameter]: STEP_CODE },
    page: (language, _context, offer) => {
      const text = otpMessages(language);
      return {
        heading: text.enrolHeading,
        content: html`<p>${text.enrolIntro}</p>
${offer === undefined ? undefined : html`<img class="qr" src="${qrCodeImage(offer.uri)}" alt="${text.enrolQrAlt}" width="200" height="200">
<p>${text.enrolSecret} <code>${spaced(offer.secret)}</code></p>`}
<div class="field"><label for="otp">${text.code}</label><input type="text" id="otp" name="${parameter}" inputmode="numeric" autocomplete="one-time-code" required autofocus></div>`,
        submit: text.enrolSubmit,
        refused: text.stepRefused,
      };
    },
    read: (parameters) => {
      const code = parameters[parameter];
      return typeof code === 'string' ? code.trim() : '';
    },
  });
}

/** The URI as a QR code: an SVG image, one square per dark module, in a `data:` URL. */
export function qrCodeImage(uri: string): string {
  const { modules } = create(uri, { errorCorrectionLevel: 'M' });
  const margin = 4;
  const size = modules.size + margin * 2;
  let path = '';
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) if (modules.get(row, column)) path += `M${column + margin} ${row + margin}h1v1h-1z`;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The base32 secret in groups of four, easier to type. */
function spaced(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
