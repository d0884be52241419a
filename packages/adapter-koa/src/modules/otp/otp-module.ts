import type { HttpModule } from '../../http-module.js';
import { otpFormField } from './otp-field.js';

/**
 * The `otp` module's part of the HTTP face (docs/protocol.md §4): no route of its own; a field for the
 * code on the login form, posted as `parameter`, which its extractor (otpExtractor) reads there as on
 * every route that takes credentials.
 */
export function otpModule(parameter: string): HttpModule {
  return {
    name: 'otp',
    extensions: () => ({ loginForm: { fields: [otpFormField(parameter)] } }),
  };
}
