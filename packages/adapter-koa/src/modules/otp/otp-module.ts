import type { TotpPrompt } from '@tessera/core/modules/otp';
import type { HttpModule } from '../../http-module.js';
import { otpFieldPart } from './otp-field.js';
import { otpStep } from './otp-step.js';

/**
 * The `otp` module's part of the HTTP face (docs/protocol.md §4): no route of its own; a field for the
 * code on the login form, posted as `parameter`, which its extractor (otpExtractor) reads there as on
 * every route that takes credentials; and the page of its prompt, asking the code of a login a
 * service's `multifactorPolicy` wants it of (step-up).
 */
export function otpModule(parameter: string, prompt: TotpPrompt): HttpModule {
  return {
    name: 'otp',
    extensions: () => ({ loginPrompts: [otpFieldPart(parameter), otpStep(parameter, prompt)] }),
  };
}
