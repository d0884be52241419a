import { otpExtractor } from '@tessera/adapter-koa';
import { RequireOtpPolicy, TotpHandler } from '@tessera/core';
import { TOKENS } from '../tokens.js';
import type { ModuleRegistration } from './registry.js';

/**
 * `otp`: the TOTP code parameter, its handler against the users' `otpSecret`, the replay store that
 * makes each code single-use, and the rule that `requireOtp` users need both factors.
 */
export const registerOtpModule: ModuleRegistration = (binder, config) => {
  binder.constant(TOKENS.CredentialExtractor, otpExtractor(config.otp.parameter));
  binder.resolved(
    TOKENS.CredentialHandler,
    [TOKENS.UserDirectory, TOKENS.OtpReplayStore, TOKENS.Clock, TOKENS.EventSink],
    (directory, replays, clock, events) => new TotpHandler('config-users-totp', directory, replays, clock, events),
  );
  binder.resolved(TOKENS.AuthenticationPolicy, [TOKENS.UserDirectory], (directory) => new RequireOtpPolicy(directory));
};
