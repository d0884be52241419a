import { otpExtractor } from '@tessera/adapter-koa/modules/otp';
import { RequireOtpPolicy, TotpHandler } from '@tessera/core/modules/otp';
import { KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';

/**
 * `otp`: the TOTP code parameter, its handler against the users' `otpSecret`, the replay store that
 * makes each code single-use, and the rule that `requireOtp` users need both factors.
 */
export const registerOtpModule: ModuleRegistration = (binder, config) => {
  binder.constant(KEYS.CredentialExtractor, otpExtractor(config.otp.parameter));
  binder.resolved(
    KEYS.CredentialHandler,
    [KEYS.UserDirectory, KEYS.Storage, KEYS.Clock, KEYS.EventSink],
    (directory, { ports: { otpSteps: replays } }, clock, events) => new TotpHandler('config-users-totp', directory, replays, clock, events),
  );
  binder.resolved(KEYS.AuthenticationPolicy, [KEYS.UserDirectory], (directory) => new RequireOtpPolicy(directory));
};
