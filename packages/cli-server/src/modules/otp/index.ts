import { otpSetupOf, TOTP_SECOND_FACTOR } from '@tessera/core/modules/otp';
import { CENTRAL_READER } from '../../request-parameters.js';
import type { ModuleContext, ModuleSettings, SettingProblem, TesseraModule } from '../module.js';
import { otpCommands } from './commands.js';
import { otpSections } from './config.js';
import { registerOtpModule } from './register.js';
import { otpEvents } from './events.js';

/** `otp` (docs/protocol.md §4): TOTP codes as a second credential. */
export const otpModule: TesseraModule<typeof otpSections> = {
  name: 'otp',
  comparisonRows: ['One-time passwords (TOTP)', 'A second factor per service (MFA policies)'],
  // No dependency: its code is read wherever credentials are (REST, the login form), next to the central username + password.
  dependencies: [],
  sections: otpSections,
  events: otpEvents,
  // A code proves the username it came with: the throttle forgets that username's failures once it is accepted.
  credentialKinds: [{ type: 'otp', provesUsername: true, amr: 'otp' }],
  // `mfa-gauth`, which services' multifactorPolicy name.
  secondFactors: [TOTP_SECOND_FACTOR],
  parameters: ({ otp }) => [{ name: otp.parameter, secret: true, credential: true }],
  problems: otpProblems,
  // A user who requires a one-time password could never log in without the module that checks it.
  neededBy: ({ users }) => users.flatMap((user, index) => (otpSetupOf(user)?.required === true ? [['users', index, 'requireOtp']] : [])),
  commands: otpCommands,
  register: registerOtpModule,
};

/** The code's parameter may be no other parameter's: a code and another value under one name could never be told apart. */
function otpProblems({ otp }: ModuleSettings<typeof otpSections>, { parameters }: ModuleContext): SettingProblem[] {
  const taken = parameters.find((parameter) => parameter.name === otp.parameter);
  if (taken === undefined) return [];
  const reader = taken.readBy === CENTRAL_READER ? 'tessera' : `the ${taken.readBy} module`;
  return [{ path: ['otp', 'parameter'], message: `expected a name other than "${taken.name}", which ${reader} reads already` }];
}
