import { otpExtractor, otpModule } from '@tessera/adapter-koa/modules/otp';
import { OtpEnrolments, OtpSetups, RecordOtpReplayStore, RequireOtpPolicy, TotpHandler, TotpPrompt, TotpSecondFactor } from '@tessera/core/modules/otp';
import type { Clock, EventSink, RandomSource, RecordStores, UserDirectory } from '@tessera/core';
import { KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { otpSections } from './config.js';

/**
 * `otp`: the TOTP code parameter, its handler against the users' `otpSecret` (or the secret a user enrolled, with `otp.selfRegistration`), the replay store that
 * makes each code single-use (its own namespace of the storage's records), the rule that `requireOtp` users need both factors, and the code's
 * field on the login form and the page of its prompt (shown when the login module is on).
 */
export const registerOtpModule: ModuleRegistration<typeof otpSections> = (binder, { otp }) => {
  binder.constant(KEYS.CredentialExtractor, otpExtractor(otp.parameter));
  // Enrolled secrets count whatever the setting says now: switching self-registration off takes no user's factor away.
  const setups = (directory: UserDirectory, records: RecordStores) => new OtpSetups(directory, new OtpEnrolments(records));
  const handler = (directory: UserDirectory, records: RecordStores, clock: Clock, events: EventSink) =>
    new TotpHandler('config-users-totp', setups(directory, records), new RecordOtpReplayStore(records, clock), clock, events);
  binder.resolved(KEYS.CredentialHandler, [KEYS.UserDirectory, KEYS.RecordStores, KEYS.Clock, KEYS.EventSink], handler);
  binder.resolved(KEYS.AuthenticationPolicy, [KEYS.UserDirectory], (directory) => new RequireOtpPolicy(directory));
  binder.resolved(KEYS.SecondFactorProvider, [KEYS.UserDirectory, KEYS.RecordStores], (directory, records) => new TotpSecondFactor(setups(directory, records)));
  binder.resolved(KEYS.HttpModule, [KEYS.UserDirectory, KEYS.RecordStores, KEYS.Clock, KEYS.EventSink, KEYS.RandomSource], (directory, records, clock, events, random: RandomSource) =>
    otpModule(otp.parameter, new TotpPrompt(handler(directory, records, clock, events)), otp.selfRegistration ? { enrolments: new OtpEnrolments(records), random, clock, issuer: otp.issuer } : undefined),
  );
};
