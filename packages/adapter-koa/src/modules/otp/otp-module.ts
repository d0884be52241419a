import type { TotpStepUp } from '@tessera/core/modules/otp';
import type { HttpModule } from '../../http-module.js';
import { otpFormField } from './otp-field.js';
import { otpStep } from './otp-step.js';

/**
 * The `otp` module's part of the HTTP face (docs/protocol.md §4): no route of its own; a field for the
 * code on the login form, posted as `parameter`, which its extractor (otpExtractor) reads there as on
 * every route that takes credentials; and the step asking it of a login a service's `multifactorPolicy`
 * wants it of (step-up).
 */
export function otpModule(parameter: string, stepUp: TotpStepUp): HttpModule {
  return {
    name: 'otp',
    extensions: () => ({ loginForm: { fields: [otpFormField(parameter)], steps: [otpStep(parameter, stepUp)] } }),
  };
}
